import type { Logger } from 'pino';
import type { Database, Db } from '../../platform/db/client';
import { sweepAbandonedGenerations } from './credits.service';
import { renewSlotLeases } from './credits.store';

export interface GenerationLeasesOptions {
  db: Db;
  /** How long a slot outlives the last renewal by its process (GENERATION_LEASE_SECONDS). */
  leaseMs: number;
  logger: Logger;
  /**
   * This process alone uses the database (PGlite): at start no generation can be running anywhere, so
   * every slot left is refunded at once instead of after its lease.
   */
  exclusiveDatabase: boolean;
}

/**
 * The leases of this process's running generations (issue 16 "Credits survive crashes"). A generation's
 * slot row holds its reserved credits; while the process works it renews the row's lease every third of
 * the lease. At start, and every half lease, rows whose lease ran out (their process is gone: killed,
 * crashed, or stalled past the lease) are deleted and their credits refunded, in one transaction each, by
 * whichever process sweeps first. The ledger shows each refund tied to its charge.
 */
export class GenerationLeases {
  private readonly held = new Set<string>();
  private renewTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: GenerationLeasesOptions) {}

  get leaseMs(): number {
    return this.options.leaseMs;
  }

  /** Sweeps what a previous run left, then renews and sweeps on timers. */
  async start(): Promise<void> {
    await this.sweep(this.options.exclusiveDatabase);
    this.renewTimer ??= setInterval(() => void this.renew(), Math.max(50, this.options.leaseMs / 3));
    this.renewTimer.unref();
    this.sweepTimer ??= setInterval(() => void this.sweep(false), Math.max(100, this.options.leaseMs / 2));
    this.sweepTimer.unref();
  }

  stop(): void {
    clearInterval(this.renewTimer);
    clearInterval(this.sweepTimer);
    this.renewTimer = undefined;
    this.sweepTimer = undefined;
  }

  /** A generation of this process took this slot: its lease is renewed until `release`. */
  hold(slotId: string): void {
    this.held.add(slotId);
  }

  release(slotId: string): void {
    this.held.delete(slotId);
  }

  /** Pushes the lease of every slot this process holds one lease further, on the database's clock. */
  async renew(): Promise<void> {
    if (this.held.size === 0) return;
    try {
      await renewSlotLeases(this.options.db, [...this.held], this.options.leaseMs);
    } catch (error) {
      // The next renewal tries again; a lease that runs out meanwhile is swept and refunded.
      this.options.logger.warn({ err: error }, 'could not renew the leases of running generations');
    }
  }

  /** Refunds abandoned generations (every slot with `everything`); never throws. */
  async sweep(everything: boolean): Promise<void> {
    try {
      const refunded = await sweepAbandonedGenerations(this.options.db, {
        everything,
        except: [...this.held],
      });
      if (refunded.length > 0) {
        this.options.logger.warn(
          { generations: refunded },
          'refunded generations whose process stopped before they finished',
        );
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'could not sweep abandoned generations');
    }
  }
}

/** The leases of this process, started: what a previous run left is swept first (main.ts, test app). */
export async function startGenerationLeases(
  database: Pick<Database, 'db' | 'kind'>,
  leaseMs: number,
  logger: Logger,
): Promise<GenerationLeases> {
  const leases = new GenerationLeases({
    db: database.db,
    leaseMs,
    logger,
    exclusiveDatabase: database.kind === 'pglite',
  });
  await leases.start();
  return leases;
}
