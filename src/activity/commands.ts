/**
 * The typed commands of the activity SDK, named as the platform's public embedded-app SDK names
 * them (`sdk.commands.setActivity(...)`), each a thin call of the protocol's command.
 */
import type { Command, CommandMap } from '../rpc/protocol';

/** Sends one command and resolves with its reply's data. */
export type SendCommand = <C extends Command>(cmd: C, args?: CommandMap[C]['args']) => Promise<CommandMap[C]['data']>;

type Call<C extends Command> = CommandMap[C]['args'] extends void
  ? () => Promise<CommandMap[C]['data']>
  : (args: CommandMap[C]['args']) => Promise<CommandMap[C]['data']>;

/** Every command the host answers, as a method. */
export interface ActivityCommands {
  authorize: Call<'AUTHORIZE'>;
  authenticate: Call<'AUTHENTICATE'>;
  setActivity: Call<'SET_ACTIVITY'>;
  getChannel: Call<'GET_CHANNEL'>;
  getChannelPermissions: Call<'GET_CHANNEL_PERMISSIONS'>;
  getSkus: Call<'GET_SKUS_EMBEDDED'>;
  getEntitlements: Call<'GET_ENTITLEMENTS_EMBEDDED'>;
  getPlatformBehaviors: Call<'GET_PLATFORM_BEHAVIORS'>;
  userSettingsGetLocale: Call<'USER_SETTINGS_GET_LOCALE'>;
  getActivityInstanceConnectedParticipants: Call<'GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS'>;
  /** The older name of {@link ActivityCommands.getActivityInstanceConnectedParticipants}. */
  getInstanceConnectedParticipants: Call<'GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS'>;
  openExternalLink: Call<'OPEN_EXTERNAL_LINK'>;
  openInviteDialog: Call<'OPEN_INVITE_DIALOG'>;
  shareLink: Call<'SHARE_LINK'>;
  startPurchase: Call<'START_PURCHASE'>;
  captureLog: Call<'CAPTURE_LOG'>;
  setConfig: Call<'SET_CONFIG'>;
  setOrientationLockState: Call<'SET_ORIENTATION_LOCK_STATE'>;
  encourageHardwareAcceleration: Call<'ENCOURAGE_HW_ACCELERATION'>;
  getRelationships: Call<'GET_RELATIONSHIPS'>;
  getUser: Call<'GET_USER'>;
  getQuest: Call<'GET_QUEST'>;
  getQuestEnrollmentStatus: Call<'GET_QUEST_ENROLLMENT_STATUS'>;
  questStartTimer: Call<'QUEST_START_TIMER'>;
  initiateImageUpload: Call<'INITIATE_IMAGE_UPLOAD'>;
  openShareMomentDialog: Call<'OPEN_SHARE_MOMENT_DIALOG'>;
  shareInteraction: Call<'SHARE_INTERACTION'>;
  inviteUserEmbedded: Call<'INVITE_USER_EMBEDDED'>;
  requestProxyTicketRefresh: Call<'REQUEST_PROXY_TICKET_REFRESH'>;
}

/**
 * The command methods over `send`.
 * @example const commands = createCommands((cmd, args) => sdk.command(cmd, args));
 */
export function createCommands(send: SendCommand): ActivityCommands {
  const call = <C extends Command>(cmd: C) => ((args?: CommandMap[C]['args']) => send(cmd, args)) as Call<C>;
  return {
    authorize: call('AUTHORIZE'),
    authenticate: call('AUTHENTICATE'),
    setActivity: call('SET_ACTIVITY'),
    getChannel: call('GET_CHANNEL'),
    getChannelPermissions: call('GET_CHANNEL_PERMISSIONS'),
    getSkus: call('GET_SKUS_EMBEDDED'),
    getEntitlements: call('GET_ENTITLEMENTS_EMBEDDED'),
    getPlatformBehaviors: call('GET_PLATFORM_BEHAVIORS'),
    userSettingsGetLocale: call('USER_SETTINGS_GET_LOCALE'),
    getActivityInstanceConnectedParticipants: call('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS'),
    getInstanceConnectedParticipants: call('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS'),
    openExternalLink: call('OPEN_EXTERNAL_LINK'),
    openInviteDialog: call('OPEN_INVITE_DIALOG'),
    shareLink: call('SHARE_LINK'),
    startPurchase: call('START_PURCHASE'),
    captureLog: call('CAPTURE_LOG'),
    setConfig: call('SET_CONFIG'),
    setOrientationLockState: call('SET_ORIENTATION_LOCK_STATE'),
    encourageHardwareAcceleration: call('ENCOURAGE_HW_ACCELERATION'),
    getRelationships: call('GET_RELATIONSHIPS'),
    getUser: call('GET_USER'),
    getQuest: call('GET_QUEST'),
    getQuestEnrollmentStatus: call('GET_QUEST_ENROLLMENT_STATUS'),
    questStartTimer: call('QUEST_START_TIMER'),
    initiateImageUpload: call('INITIATE_IMAGE_UPLOAD'),
    openShareMomentDialog: call('OPEN_SHARE_MOMENT_DIALOG'),
    shareInteraction: call('SHARE_INTERACTION'),
    inviteUserEmbedded: call('INVITE_USER_EMBEDDED'),
    requestProxyTicketRefresh: call('REQUEST_PROXY_TICKET_REFRESH'),
  };
}
