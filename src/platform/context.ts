import type { EntityManager } from '@mikro-orm/postgresql';
import type { NativeDb } from './db/native-query.js';
import type { Plan } from './config.js';

/** Which door a request came through; plan access differs by door (docs/api.md). */
export type Channel = 'SURFACE_A' | 'SURFACE_B' | 'GRAPHQL' | 'CLI' | 'WORKER';
export type MemberRole = 'owner' | 'admin' | 'member';

export interface Principal {
  organizationId: string;
  plan: Plan;
  role: MemberRole;
  via: 'API_KEY' | 'SESSION' | 'SYSTEM';
  channel: Channel;
  userId?: string;
  apiKeyId?: string;
}

/**
 * Per-request (or per-job) loader registry: modules create their DataLoaders lazily under a key,
 * so nothing request-scoped outlives the request and platform needs no knowledge of modules.
 */
export class LoaderRegistry {
  private readonly loaders = new Map<string, unknown>();
  get<T>(key: string, create: () => T): T {
    let loader = this.loaders.get(key) as T | undefined;
    if (loader === undefined) {
      loader = create();
      this.loaders.set(key, loader);
    }
    return loader;
  }
}

export interface RequestContext {
  principal: Principal | null;
  /** A fork of the ORM for this request (created on first use: forking costs more than a plain read). */
  em: EntityManager;
  /** Plain SQL reads through nativeQuery, outside any unit of work; forks nothing. */
  db: NativeDb;
  loaders: LoaderRegistry;
  requestId: string;
  ip?: string;
  /**
   * Aborted when the request's client goes away (HTTP: the connection closed before the answer was sent); undefined
   * where nobody can go away (workers, the CLI). Bounded statements (boundedQuery) are cancelled in PostgreSQL then.
   */
  readonly signal?: AbortSignal;
}

/**
 * The context of one API request. A class, so that creating one per request is a plain allocation (an object
 * literal with a getter is not); the fork of the ORM is made on first use of `em`.
 */
export class ApiRequestContext implements RequestContext {
  readonly loaders = new LoaderRegistry();
  private forked: EntityManager | undefined;
  private aborted: AbortSignal | undefined;

  constructor(
    private readonly root: EntityManager,
    readonly principal: Principal | null,
    readonly requestId: string,
    readonly ip?: string,
    /** Makes the request's signal: called on first use only (most requests run no bounded statement). */
    private readonly makeSignal?: () => AbortSignal,
  ) {}

  get signal(): AbortSignal | undefined {
    return (this.aborted ??= this.makeSignal?.());
  }

  get em(): EntityManager {
    return (this.forked ??= this.root.fork());
  }

  get db(): NativeDb {
    return this.root;
  }
}
