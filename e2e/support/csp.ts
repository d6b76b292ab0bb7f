import { expect, type Page } from '@playwright/test';

/**
 * Records every `securitypolicyviolation` of a page (its documents and their workers report to
 * the document), from before its first script runs. Call before `page.goto`; read with
 * `violations()`, or assert none with `expectNoViolations()`. Shared by the widget's, the
 * dashboard's and the demo page's CSP checks.
 */
export async function watchCsp(page: Page): Promise<{ violations(): string[]; expectNoViolations(): void }> {
  const seen: string[] = [];
  await page.exposeFunction('__cspViolation', (v: string) => seen.push(v));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
        `${e.violatedDirective} ${e.blockedURI || '(inline)'} ${e.sourceFile ?? ''}:${e.lineNumber ?? ''}`,
      ),
    ),
  );
  return {
    violations: () => [...seen],
    expectNoViolations: () => expect(seen, `CSP violations: ${seen.join(' | ')}`).toEqual([]),
  };
}
