"""A discord.py bot pointed at a platformpp server, driven by the test over JSON lines.

discord.py is used unmodified, configured as its own docs allow: ``discord.http.Route.BASE``
is the REST base and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` the gateway a
non-sharded client connects to (discord.py then adds ``?v=10&encoding=json&compress=zlib-stream``).

Environment: PLATFORMPP_API (``<sandbox>/api/v10``), PLATFORMPP_GATEWAY (the ``url`` of
``GET /gateway/bot``) and PLATFORMPP_BOT_TOKEN.

Lines written to stdout, one JSON object each:
  {"event": "ready", "ready_ms", "user", "application_id", "guilds": [{id, name, text_channels, voice_channels}]}
  {"event": "replied", "heard": {id, content, author_id}, "reply": {id, content, reference_id}}
      (or "error" instead of "reply" when the platform refused the reply)
  {"reply_to": n, "ok": true, "result": ...} or {"reply_to": n, "ok": false, "error": "..."}
Commands read from stdin, one JSON object each, with an "id" the answer repeats as "reply_to":
  {"op": "edit", "channel_id", "message_id", "content"}
  {"op": "history", "channel_id", "limit"}
  {"op": "sync"}                          the command tree's global commands
  {"op": "dm", "user_id", "content"}      user.send
  {"op": "create_role", "guild_id", "name"}                 guild.create_role
  {"op": "add_role", "guild_id", "user_id", "role_id"}      member.add_roles
  {"op": "ban", "guild_id", "user_id"} / {"op": "unban", ...}   guild.ban / guild.unban
  {"op": "bans", "guild_id"}                                 the ids of guild.bans()
Events of a guild's bans: {"event": "member_ban" | "member_unban", "guild_id", "user_id"}.
  {"op": "close"}
"""

import asyncio
import json
import logging
import os
import sys
import threading
import time

import discord
import yarl
from discord import app_commands

discord.http.Route.BASE = os.environ['PLATFORMPP_API']
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ['PLATFORMPP_GATEWAY'])

# discord.py's own warnings and errors go to stderr, where the test shows them on failure.
logging.basicConfig(level=logging.WARNING, stream=sys.stderr)

intents = discord.Intents.default()
intents.message_content = True
client = discord.Client(intents=intents)
tree = app_commands.CommandTree(client)
started = time.perf_counter()


@tree.command(name='ping', description='Answers pong')
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message('pong')


def emit(payload: dict) -> None:
    sys.stdout.write(json.dumps(payload) + '\n')
    sys.stdout.flush()


def message_json(message: discord.Message) -> dict:
    reference = message.reference.message_id if message.reference else None
    return {
        'id': str(message.id),
        'content': message.content,
        'author_id': str(message.author.id),
        'reference_id': str(reference) if reference else None,
        'edited': message.edited_at is not None,
    }


@client.event
async def on_ready() -> None:
    guilds = [
        {
            'id': str(guild.id),
            'name': guild.name,
            'text_channels': [{'id': str(c.id), 'name': c.name} for c in guild.text_channels],
            'voice_channels': [
                {'id': str(c.id), 'name': c.name, 'bitrate': c.bitrate, 'user_limit': c.user_limit}
                for c in guild.voice_channels
            ],
        }
        for guild in client.guilds
    ]
    emit({
        'event': 'ready',
        'ready_ms': (time.perf_counter() - started) * 1000,
        'user': {'id': str(client.user.id), 'name': client.user.name, 'bot': client.user.bot},
        'application_id': str(client.application_id),
        'guilds': guilds,
    })


@client.event
async def on_message(message: discord.Message) -> None:
    if message.author.bot or message.guild is None:
        return
    try:
        reply = await message.reply(f'echo: {message.content}')
    except discord.HTTPException as error:
        # The test waits for this line: say why there is no reply instead of leaving it waiting.
        emit({'event': 'replied', 'heard': message_json(message), 'error': f'{type(error).__name__}: {error}'})
        return
    emit({'event': 'replied', 'heard': message_json(message), 'reply': message_json(reply)})


@client.event
async def on_member_ban(guild: discord.Guild, user: discord.User) -> None:
    emit({'event': 'member_ban', 'guild_id': str(guild.id), 'user_id': str(user.id)})


@client.event
async def on_member_unban(guild: discord.Guild, user: discord.User) -> None:
    emit({'event': 'member_unban', 'guild_id': str(guild.id), 'user_id': str(user.id)})


async def run_guild_command(command: dict):
    guild = client.get_guild(int(command['guild_id']))
    op = command['op']
    if op == 'create_role':
        role = await guild.create_role(name=command['name'], hoist=True)
        return {'id': str(role.id), 'name': role.name, 'position': role.position, 'hoist': role.hoist}
    if op == 'add_role':
        member = await guild.fetch_member(int(command['user_id']))
        await member.add_roles(discord.Object(id=int(command['role_id'])))
        return [str(r.id) for r in (await guild.fetch_member(int(command['user_id']))).roles]
    if op == 'ban':
        await guild.ban(discord.Object(id=int(command['user_id'])), delete_message_seconds=0)
        return None
    if op == 'unban':
        await guild.unban(discord.Object(id=int(command['user_id'])))
        return None
    if op == 'bans':
        return [str(entry.user.id) async for entry in guild.bans()]
    raise ValueError(f'unknown op {op}')


async def run_command(command: dict):
    op = command['op']
    if op == 'edit':
        channel = client.get_channel(int(command['channel_id']))
        edited = await channel.get_partial_message(int(command['message_id'])).edit(content=command['content'])
        return message_json(edited)
    if op == 'history':
        channel = client.get_channel(int(command['channel_id']))
        return [message_json(m) async for m in channel.history(limit=command['limit'])]
    if op == 'sync':
        return [{'id': str(c.id), 'name': c.name, 'description': c.description} for c in await tree.sync()]
    if op == 'dm':
        user = await client.fetch_user(int(command['user_id']))
        sent = await user.send(command['content'])
        return {'channel_id': str(sent.channel.id), 'dm': isinstance(sent.channel, discord.DMChannel), **message_json(sent)}
    if op == 'close':
        await client.close()
        return None
    if 'guild_id' in command:
        return await run_guild_command(command)
    raise ValueError(f'unknown op {op}')


def read_stdin(loop: asyncio.AbstractEventLoop, lines: asyncio.Queue) -> None:
    # A daemon thread: a blocking read of stdin never keeps the process alive after the bot closed.
    for line in sys.stdin:
        loop.call_soon_threadsafe(lines.put_nowait, line)
    loop.call_soon_threadsafe(lines.put_nowait, '')


async def read_commands() -> None:
    lines: asyncio.Queue = asyncio.Queue()
    threading.Thread(target=read_stdin, args=(asyncio.get_running_loop(), lines), daemon=True).start()
    while True:
        line = await lines.get()
        if line == '':
            # The test went away: stop rather than linger.
            await client.close()
            return
        command = json.loads(line)
        try:
            result = await run_command(command)
            emit({'reply_to': command['id'], 'ok': True, 'result': result})
        except Exception as error:  # Any failure is the test's to report.
            emit({'reply_to': command['id'], 'ok': False, 'error': f'{type(error).__name__}: {error}'})
        if command['op'] == 'close':
            return


async def main() -> None:
    async with client:
        commands = asyncio.create_task(read_commands())
        await client.start(os.environ['PLATFORMPP_BOT_TOKEN'])
        await commands


asyncio.run(main())
