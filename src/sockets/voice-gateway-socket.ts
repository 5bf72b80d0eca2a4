/**
 * `VoiceGatewaySocket`: the voice gateway as a page reaches it, with the `WebSocket` interface,
 * as `GatewaySocket` reaches the gateway (the same hub, the same socket wire, one
 * `MessagePort` each). The URL is the endpoint of VOICE_SERVER_UPDATE (`/voice`, a path of
 * this origin) with the version, which must be given:
 *
 *   const ws = new VoiceGatewaySocket('/voice?v=8');
 *   ws.onmessage = (event) => handle(JSON.parse(event.data)); // Hello (op 8) first
 *
 * In a page that joined a platform server (`<pp-platform server>`), it is a real WebSocket to
 * that server's voice gateway instead, so the pages of a call may be on different machines; so
 * is a URL on another host (the `endpoint` a server's VOICE_SERVER_UPDATE names).
 *
 * Signaling only: Ready names no media server (a browser sandbox has no UDP, no RTP).
 */
import { GatewaySocket, type GatewaySocketOptions } from './gateway-socket';

/** A voice gateway connection with the `WebSocket` interface. */
export class VoiceGatewaySocket extends GatewaySocket {
  constructor(url: string | URL, protocols?: string | string[], options: GatewaySocketOptions = {}) {
    super(url, protocols, options, 'voice');
  }
}
