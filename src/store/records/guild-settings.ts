/**
 * A guild's settings that bots read and edit apart from the guild object: its widget, welcome
 * screen, onboarding and incident actions. One record per guild, written only once a setting
 * leaves the platform's default; a guild without a record has every default.
 */
import type { Snowflake } from './core';

/** One channel of a welcome screen. */
export interface WelcomeChannelRecord {
  channel_id: Snowflake;
  description: string;
  emoji_id: Snowflake | null;
  emoji_name: string | null;
}

/** One option of an onboarding prompt. */
export interface OnboardingOptionRecord {
  id: Snowflake;
  title: string;
  description: string;
  emoji_id: Snowflake | null;
  emoji_name: string | null;
  emoji_animated: boolean;
  role_ids: Snowflake[];
  channel_ids: Snowflake[];
}

/** One onboarding prompt. */
export interface OnboardingPromptRecord {
  id: Snowflake;
  /** 0 MULTIPLE_CHOICE, 1 DROPDOWN. */
  type: number;
  title: string;
  options: OnboardingOptionRecord[];
  single_select: boolean;
  required: boolean;
  in_onboarding: boolean;
}

/** A guild's settings record, keyed by `guild_id`. */
export interface GuildSettingsRecord {
  guild_id: Snowflake;
  /** `invite_code`: the invite `widget.json` last handed out for the invite channel. */
  widget: { enabled: boolean; channel_id: Snowflake | null; invite_code?: string };
  welcome_screen: { enabled: boolean; description: string | null; welcome_channels: WelcomeChannelRecord[] };
  onboarding: {
    enabled: boolean;
    /** 0 ONBOARDING_DEFAULT, 1 ONBOARDING_ADVANCED. */
    mode: number;
    default_channel_ids: Snowflake[];
    prompts: OnboardingPromptRecord[];
  };
  /** Incident actions: epoch ms until which invites / DMs are paused, or null. */
  incidents: { invites_disabled_until: number | null; dms_disabled_until: number | null };
}
