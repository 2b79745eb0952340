/** Building and reading the few PostgreSQL wire-protocol messages the embedded database's server handles itself. */

const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

export function authentication(code: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const body = Buffer.alloc(4);
  body.writeInt32BE(code, 0);
  return message('R', Buffer.concat([body, data]));
}

export function fatal(sqlstate: string, text: string): Buffer {
  const fields = [`SFATAL`, `VFATAL`, `C${sqlstate}`, `M${text}`].map((f) => Buffer.from(`${f}\0`, 'utf8'));
  return message('E', Buffer.concat([...fields, Buffer.from([0])]));
}

/** Parameters of a StartupMessage (user, database, …). */
export function startupParameters(packet: Buffer): Record<string, string> {
  const parts = packet.subarray(8).toString('utf8').split('\0');
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) out[parts[i]] = parts[i + 1];
  return out;
}

/** The mechanism and data of a SASLInitialResponse, or the data of a SASLResponse. */
export function saslPayload(msg: Buffer, initial: boolean): { mechanism?: string; data: string } | null {
  const body = msg.subarray(5);
  if (!initial) return { data: body.toString('utf8') };
  const end = body.indexOf(0);
  if (end < 0 || body.length < end + 5) return null;
  const length = body.readInt32BE(end + 1);
  return {
    mechanism: body.subarray(0, end).toString('utf8'),
    data: length < 0 ? '' : body.subarray(end + 5, end + 5 + length).toString('utf8'),
  };
}

/** True when the last ReadyForQuery in a reply says the session is idle (not in a transaction). */
export function endsIdle(reply: Uint8Array): boolean {
  let status: number | null = null;
  let offset = 0;
  const view = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  while (offset + 5 <= view.length) {
    const type = view[offset];
    const length = view.readInt32BE(offset + 1);
    if (type === READY_FOR_QUERY && length === 5) status = view[offset + 5];
    offset += 1 + length;
  }
  return status === IDLE;
}
