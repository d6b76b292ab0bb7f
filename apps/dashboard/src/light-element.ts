import { LitElement } from 'lit';

/** Renders into the light DOM: one page-wide stylesheet and plain accessible markup around Web Awesome controls. */
export class LightElement extends LitElement {
  override createRenderRoot() {
    return this;
  }
}

/** Navigates inside the single-page app. */
export function navigate(path: string): void {
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
