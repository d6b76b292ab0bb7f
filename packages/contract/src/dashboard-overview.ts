import { z } from 'zod';
import { modeSchema } from './schemas.js';

/**
 * The dashboard's Overview page (decisions.md "Dashboard"): what a tenant sees first after
 * sign-in. `GET /dashboard/api/overview?mode=live&days=7` answers one period of one mode.
 */

/** The periods a tenant can choose, in days, the last of them today (UTC). */
export const OVERVIEW_PERIODS = [7, 30, 90] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];

/** How many reasons the "most frequent reasons" chart lists. */
export const OVERVIEW_TOP_REASONS = 8;

/** The outcomes a verification's day is counted under: its verdict, or `failed` (no verdict). */
export const OVERVIEW_OUTCOMES = ['approved', 'review', 'rejected', 'failed'] as const;
export type OverviewOutcome = (typeof OVERVIEW_OUTCOMES)[number];

export const overviewQuerySchema = z.object({
  mode: modeSchema.optional().default('live'),
  days: z.coerce
    .number()
    .int()
    .refine((d): d is OverviewPeriod => (OVERVIEW_PERIODS as readonly number[]).includes(d), {
      message: `days must be one of ${OVERVIEW_PERIODS.join(', ')}`,
    })
    .optional()
    .default(7),
});
export type OverviewQuery = z.input<typeof overviewQuerySchema>;

const count = z.number().int().nonnegative();

/** Verifications that reached an outcome on one UTC day, by outcome. */
export const overviewDaySchema = z.object({
  /** `YYYY-MM-DD` (UTC). */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  approved: count,
  review: count,
  rejected: count,
  failed: count,
});
export type OverviewDay = z.infer<typeof overviewDaySchema>;

export const overviewResponseSchema = z.object({
  mode: modeSchema,
  days: z.number().int(),
  /** Start of the period (00:00 UTC of its first day) and the moment the figures were read. */
  from: z.string().datetime(),
  to: z.string().datetime(),
  /** One entry per day of the period, oldest first; days without outcomes count zero. */
  perDay: z.array(overviewDaySchema),
  /** The period's totals by outcome (the shares are these over `total`). */
  totals: z.object({ approved: count, review: count, rejected: count, failed: count, total: count }),
  /** The most frequent verdict reasons of the period, most frequent first (at most OVERVIEW_TOP_REASONS). */
  topReasons: z.array(z.object({ reason: z.string(), count })),
  /**
   * Seconds from submit to verdict over the period's verdicts (failures have none), within 2% (read
   * from a histogram); null when there were none.
   */
  timeToVerdict: z.object({ count, medianSeconds: z.number().nullable(), p95Seconds: z.number().nullable() }),
  /** Verifications waiting for a reviewer now (any age), and the one waiting longest. */
  reviewBacklog: z.object({
    count,
    oldest: z.object({ verificationId: z.string(), waitingSince: z.string().datetime() }).nullable(),
  }),
  /**
   * Webhook deliveries failing now (both modes share the tenant's webhook): `retrying` are still
   * pending after a failed attempt, `failed` gave up within the period; `lastFailureAt` and
   * `lastStatusCode` describe the latest failed attempt among them. Null for a reviewer (webhooks
   * are an admin's page).
   */
  failingDeliveries: z
    .object({
      retrying: count,
      failed: count,
      lastFailureAt: z.string().datetime().nullable(),
      lastStatusCode: z.number().int().nullable(),
      lastError: z.string().nullable(),
    })
    .nullable(),
});
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;
