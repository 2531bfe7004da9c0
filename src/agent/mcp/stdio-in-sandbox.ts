/**
 * The SDK's stdio transport, with the server's process inside the sandbox (Sandbox.spawn) rather
 * than on the host: messages are newline-delimited JSON on its stdin and stdout, framed by the
 * SDK's own ReadBuffer and serializeMessage.
 */
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SandboxProcess } from '../../sandbox/types.js';

export class SandboxStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private readonly process: SandboxProcess;

  constructor(process: SandboxProcess) {
    this.process = process;
  }

  async start(): Promise<void> {
    this.process.stdout.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (err) {
          this.onerror?.(err instanceof Error ? err : new Error(String(err)));
          continue;
        }
        if (message === null) return;
        this.onmessage?.(message);
      }
    });
    void this.process.exited.then(() => this.onclose?.());
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.process.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    await this.process.end();
    this.buffer.clear();
  }
}
