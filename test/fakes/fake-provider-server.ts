import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptedAnswer, ScriptedReply } from './script.js';
import { ThinkingLedger, type Violation } from './thinking-ledger.js';

export type FakeProtocol = 'anthropic' | 'openai' | 'bedrock';

/** One request as the fake saw it, for assertions (the exact JSON a provider sent). */
export interface RecordedRequest {
  protocol: FakeProtocol | 'unknown';
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: unknown;
  rawBody: string;
  /** Whether the request asked for a stream. */
  isStream: boolean;
}

/** What a protocol module gets to answer one model call. */
export interface ProtocolContext {
  request: RecordedRequest;
  reply: ScriptedReply;
  res: ServerResponse;
  /** Counts calls per protocol, for deterministic ids. */
  callNumber: number;
  /** Resolves after `ms`, or at once when the client went away. */
  sleep(ms: number): Promise<void>;
  /** Before stream event `index`: the answer's delay between events, then its gate's permit (if it has one). */
  paceEvent(answer: ScriptedAnswer, index: number): Promise<void>;
  /**
   * Writes one stream event and resolves once it is handed to the socket (so a later cut cannot
   * drop it), or when the client has gone (a write to a socket being torn down may never call back).
   */
  writeEvent(data: string | Uint8Array): Promise<void>;
  /** True once the client has closed the connection (for cancellation tests). */
  isClosed(): boolean;
  /** Signs the thinking this answer hands out and remembers it, so it can be checked when it comes back. */
  ledger: ThinkingLedger;
}

/** A protocol: which requests it owns, and how it writes a scripted reply on the wire. */
export interface FakeProtocolHandler {
  protocol: FakeProtocol;
  /** Whether this request is a model call of this protocol (consumes one scripted reply). */
  matchesCall(method: string, path: string, headers: Record<string, string>): boolean;
  isStream(path: string, body: unknown): boolean;
  respond(context: ProtocolContext): Promise<void>;
  /** The service's request rules: a violation is answered as the service answers it, and fails the test. */
  validate?(request: RecordedRequest, ledger: ThinkingLedger): Violation | undefined;
  respondViolation?(res: ServerResponse, violation: Violation): void;
  /** Model listing (`GET .../models`): answered from the fake's model list, consumes nothing. */
  matchesListing?(method: string, path: string, headers: Record<string, string>): boolean;
  respondListing?(res: ServerResponse, models: string[]): void;
}

/** What an extra route may use of the server: the scripted queue, the signing ledger, its own address. */
export interface FakeRouteContext {
  /** The next scripted reply, or undefined when the script is exhausted. */
  takeReply(): ScriptedReply | undefined;
  readonly ledger: ThinkingLedger;
  readonly url: string;
  /** A request the service would refuse: fails assertDone(). */
  recordViolation(violation: Violation): void;
  /** A call the script did not foresee: fails assertDone(). */
  recordUnexpected(why: string): void;
}

/** An endpoint beyond a protocol's model calls (Anthropic's Message Batches), with state of its own. */
export interface FakeRoute {
  protocol: FakeProtocol;
  matches(method: string, path: string, headers: Record<string, string>): boolean;
  respond(request: RecordedRequest, res: ServerResponse, context: FakeRouteContext): void;
}

export interface FakeProviderOptions {
  /** Extra endpoints, matched before the protocols' model calls. */
  routes?: FakeRoute[];
  script?: ScriptedReply[];
  /** Model ids returned by listing endpoints. */
  models?: string[];
  handlers: FakeProtocolHandler[];
  port?: number;
  /** Called for every request (the standalone runner logs them). */
  onRequest?: (request: RecordedRequest) => void;
  /** Check each model call against the service's rules (default on: a request a service would reject fails the test). */
  validate?: boolean;
}

/**
 * A loopback HTTP server that speaks the providers' wire formats well enough for their official SDKs,
 * replays a scripted queue strictly (an unexpected or extra call is recorded and answered with 500),
 * and records every request.
 */
export class FakeProviderServer {
  readonly requests: RecordedRequest[] = [];
  /** Calls that found no scripted reply or matched no route: `assertDone()` fails on them. */
  readonly unexpected: string[] = [];
  /** Requests the real service would have rejected, with its answer: `assertDone()` fails on them. */
  readonly violations: Violation[] = [];
  readonly ledger = new ThinkingLedger();
  private readonly queue: ScriptedReply[];
  private readonly calls = new Map<string, number>();
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  /** While set, model calls are recorded but not answered until it resolves (`hold()`). */
  private held: Promise<void> | null = null;
  private server: Server | undefined;
  url = '';

  constructor(private readonly options: FakeProviderOptions) {
    this.queue = [...(options.script ?? [])];
  }

  static async start(options: FakeProviderOptions): Promise<FakeProviderServer> {
    const fake = new FakeProviderServer(options);
    await fake.listen();
    return fake;
  }

  enqueue(...replies: ScriptedReply[]): void {
    this.queue.push(...replies);
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Model calls only (listing requests excluded). */
  get modelCalls(): RecordedRequest[] {
    return this.requests.filter(
      (request) => request.protocol !== 'unknown' && !request.path.endsWith('/models'),
    );
  }

  /** Fails when a call was unexpected or a scripted reply was never used. */
  assertDone(): void {
    if (this.unexpected.length > 0)
      throw new Error(`fake provider: unexpected calls:\n${this.unexpected.join('\n')}`);
    if (this.violations.length > 0)
      throw new Error(
        `fake provider: requests the service would reject:\n${this.violations.map((v) => `${v.status} ${v.type}: ${v.message}`).join('\n')}`,
      );
    if (this.queue.length > 0)
      throw new Error(`fake provider: ${this.queue.length} scripted replies were never requested`);
  }

  /**
   * Resolves once `count` requests have arrived (the scripted reply is taken in the same tick), so a test
   * can cancel a call that is surely in flight instead of guessing how long the request takes to arrive.
   */
  whenRequested(count = 1): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /**
   * Holds every model call from now on: it is recorded (so `whenRequested` resolves) but not answered
   * until the returned function is called. A test can then change the world at a known point of the
   * run (swap a folder while the map call is in flight) with no timer involved.
   */
  hold(): () => void {
    let release = (): void => undefined;
    this.held = new Promise<void>((resolve) => {
      release = () => {
        this.held = null;
        resolve();
      };
    });
    return release;
  }

  /**
   * Like assertDone, but a reply may stay unused: for a client that gives up on its own timer, which
   * under load can fire before its request arrives.
   */
  assertNoSurprises(): void {
    const pending = this.queue.splice(0);
    try {
      this.assertDone();
    } finally {
      this.queue.push(...pending);
    }
  }

  /** The violations so far, cleared: for tests that send an invalid request on purpose. */
  takeViolations(): Violation[] {
    return this.violations.splice(0);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  private listen(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    return new Promise((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.options.port ?? 0, '127.0.0.1', () => {
        const { port } = this.server!.address() as AddressInfo;
        this.url = `http://127.0.0.1:${port}`;
        resolve();
      });
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawBody = await readBody(req);
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(', ') : (value ?? ''),
      ]),
    );
    let body: unknown = rawBody;
    try {
      body = rawBody === '' ? undefined : JSON.parse(rawBody);
    } catch {
      // Not JSON: keep the text.
    }
    const route = this.options.routes?.find((candidate) =>
      candidate.matches(method, path, headers),
    );
    const listing = this.options.handlers.find((handler) =>
      handler.matchesListing?.(method, path, headers),
    );
    const handler = this.options.handlers.find((candidate) =>
      candidate.matchesCall(method, path, headers),
    );
    const request: RecordedRequest = {
      protocol: (route ?? listing ?? handler)?.protocol ?? 'unknown',
      method,
      path,
      headers,
      body,
      rawBody,
      isStream: handler ? handler.isStream(path, body) : false,
    };
    this.requests.push(request);
    this.options.onRequest?.(request);
    for (const waiter of this.waiters.filter((w) => this.requests.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }

    if (route) {
      route.respond(request, res, {
        takeReply: () => this.queue.shift(),
        ledger: this.ledger,
        url: this.url,
        recordViolation: (violation) => this.violations.push(violation),
        recordUnexpected: (why) => this.unexpected.push(why),
      });
      return;
    }
    if (listing?.respondListing) {
      listing.respondListing(res, this.options.models ?? []);
      return;
    }
    if (!handler) return this.fail(res, `no route for ${method} ${path}`);
    if (this.held !== null) await this.held;
    const violation =
      this.options.validate === false ? undefined : handler.validate?.(request, this.ledger);
    if (violation && handler.respondViolation) {
      // The service refuses it before any model runs: no scripted reply is used.
      this.violations.push(violation);
      handler.respondViolation(res, violation);
      return;
    }
    const reply = this.queue.shift();
    if (!reply)
      return this.fail(
        res,
        `extra ${handler.protocol} call ${method} ${path}: the script is exhausted`,
      );
    const callNumber = (this.calls.get(handler.protocol) ?? 0) + 1;
    this.calls.set(handler.protocol, callNumber);
    let closed = false;
    const whenClosed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    res.on('close', () => (closed = true));
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        if (ms <= 0 || closed) return resolve();
        const onClose = () => {
          clearTimeout(timer);
          resolve();
        };
        // One listener per wait, removed when the wait ends, so a long paced stream does not pile them up.
        const timer = setTimeout(() => {
          res.off('close', onClose);
          resolve();
        }, ms);
        res.once('close', onClose);
      });
    const writeEvent = (data: string | Uint8Array) =>
      Promise.race([new Promise<void>((resolve) => res.write(data, () => resolve())), whenClosed]);
    const paceEvent = async (answer: ScriptedAnswer, index: number) => {
      if (index > 0) await sleep(answer.eventDelayMs ?? 0);
      if (!closed) await answer.gate?.pass(whenClosed);
    };
    try {
      await handler.respond({
        request,
        reply,
        res,
        callNumber,
        sleep,
        paceEvent,
        writeEvent,
        isClosed: () => closed,
        ledger: this.ledger,
      });
    } catch (error) {
      this.fail(res, `fake ${handler.protocol} handler failed: ${(error as Error).message}`);
    } finally {
      if (reply.kind === 'answer') reply.gate?.finish(closed);
    }
  }

  private fail(res: ServerResponse, why: string): void {
    this.unexpected.push(why);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'fake_unexpected_call', message: why } }));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
