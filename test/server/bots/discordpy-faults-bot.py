"""A discord.py bot that reports how it lives through faults, driven by the test over JSON lines.

Configured as ``discordpy-bot.py`` is (``Route.BASE`` and ``DEFAULT_GATEWAY`` only). Environment:
PLATFORMPP_API, PLATFORMPP_GATEWAY, PLATFORMPP_BOT_TOKEN, and PLATFORMPP_HEARTBEAT_TIMEOUT (seconds,
discord.py's documented ``heartbeat_timeout``: how long it waits hearing nothing before it
reconnects; its default is 60).

Lines written to stdout, one JSON object each:
  {"event": "ready", "at"}          on_ready: after each new session (an Identify)
  {"event": "resumed", "at"}        on_resumed: a session resumed
  {"event": "heard", "content", "at"}  a message from someone else
  {"reply_to": n, "ok": true, "result": ...} or {"reply_to": n, "ok": false, "error": "..."}
``at`` is the bot's monotonic clock in ms, so the test can time a recovery.
Commands read from stdin: {"id", "op": "send", "channel_id", "content"}, {"id", "op": "close"}.
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

discord.http.Route.BASE = os.environ['PLATFORMPP_API']
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ['PLATFORMPP_GATEWAY'])

# discord.py's own log (its 429 waits, its reconnects) goes to stderr, which the test shows on failure.
logging.basicConfig(level=logging.INFO, stream=sys.stderr)

intents = discord.Intents.default()
intents.message_content = True
client = discord.Client(
    intents=intents, heartbeat_timeout=float(os.environ.get('PLATFORMPP_HEARTBEAT_TIMEOUT', '60'))
)


def now_ms() -> float:
    return time.perf_counter() * 1000


def emit(payload: dict) -> None:
    sys.stdout.write(json.dumps(payload) + '\n')
    sys.stdout.flush()


@client.event
async def on_ready() -> None:
    emit({'event': 'ready', 'at': now_ms()})


@client.event
async def on_resumed() -> None:
    emit({'event': 'resumed', 'at': now_ms()})


@client.event
async def on_message(message: discord.Message) -> None:
    if message.author.id != client.user.id:
        emit({'event': 'heard', 'content': message.content, 'at': now_ms()})


async def run_command(command: dict):
    if command['op'] == 'send':
        started = now_ms()
        sent = await client.get_channel(int(command['channel_id'])).send(command['content'])
        return {'id': str(sent.id), 'took_ms': now_ms() - started}
    if command['op'] == 'now':
        return now_ms()
    if command['op'] == 'close':
        await client.close()
        return None
    raise ValueError(f"unknown op {command['op']}")


def read_stdin(loop: asyncio.AbstractEventLoop, lines: asyncio.Queue) -> None:
    for line in sys.stdin:
        loop.call_soon_threadsafe(lines.put_nowait, line)
    loop.call_soon_threadsafe(lines.put_nowait, '')


async def read_commands() -> None:
    lines: asyncio.Queue = asyncio.Queue()
    threading.Thread(target=read_stdin, args=(asyncio.get_running_loop(), lines), daemon=True).start()
    while True:
        line = await lines.get()
        if line == '':
            await client.close()
            return
        command = json.loads(line)
        try:
            emit({'reply_to': command['id'], 'ok': True, 'result': await run_command(command)})
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
