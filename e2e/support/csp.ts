import { expect, type Page } from '@playwright/test';

/** One Content-Security-Policy violation as the browser reported it. */
export interface CspViolation {
  /** `securitypolicyviolation` event, or a console message of a context without one (a worker). */
  via: 'event' | 'console';
  directive: string;
  blockedURI: string;
  sourceFile: string;
  line: number;
  sample: string;
  url: string;
}

export interface CspWatch {
  /** Every violation seen so far, across navigations. */
  readonly violations: CspViolation[];
  /** Fails the test if any violation was reported, listing them. */
  expectNone(): void;
}

let bindings = 0;

/**
 * Watches a page for CSP violations. Call before `page.goto`: an init script adds a
 * `securitypolicyviolation` listener ahead of the page's own scripts on every navigation, and
 * reports to the test through a binding, so violations survive reloads. Chromium's console
 * messages about a refused load or eval are caught too (a worker's violations reach only the
 * console).
 */
export async function watchCsp(page: Page): Promise<CspWatch> {
  const violations: CspViolation[] = [];
  const name = `__cspViolation${++bindings}`;
  await page.exposeBinding(name, (_source, v: Omit<CspViolation, 'via'>) => {
    violations.push({ via: 'event', ...v });
  });
  await page.addInitScript((fn: string) => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const report = (window as unknown as Record<string, (v: unknown) => void>)[fn];
        report?.({
          directive: e.effectiveDirective,
          blockedURI: e.blockedURI,
          sourceFile: e.sourceFile,
          line: e.lineNumber,
          sample: e.sample,
          url: location.href,
        });
      },
      true,
    );
  }, name);
  page.on('console', (msg) => {
    const text = msg.text();
    if (!/Content Security Policy/i.test(text)) return;
    // A document's violation is also an event (both are kept: the check is for none); a worker's
    // reaches only the console.
    const loc = msg.location();
    violations.push({
      via: 'console',
      directive: '',
      blockedURI: '',
      sourceFile: loc.url,
      line: loc.lineNumber,
      sample: text,
      url: page.url(),
    });
  });
  return {
    violations,
    expectNone() {
      const describe = (v: CspViolation) =>
        v.via === 'event'
          ? `${v.directive} blocked ${v.blockedURI || '(inline)'} at ${v.sourceFile}:${v.line} on ${v.url}`
          : `console: ${v.sample}`;
      expect(violations.map(describe), 'Content-Security-Policy violations').toEqual([]);
    },
  };
}
