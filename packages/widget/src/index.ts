import type { WidgetCompleteDetail, WidgetErrorDetail } from '@service/contract';
import { ServiceWidget } from './service-widget.js';

export { ServiceWidget };
export type { WidgetCompleteDetail, WidgetErrorDetail, WidgetErrorCode } from '@service/contract';

/** Registers `<service-widget>` once; a no-op where there is no DOM (server-side rendering). */
export function defineServiceWidget(tagName = 'service-widget'): void {
  if (typeof customElements === 'undefined' || customElements.get(tagName)) return;
  customElements.define(tagName, ServiceWidget);
}

defineServiceWidget();

declare global {
  interface HTMLElementTagNameMap {
    'service-widget': ServiceWidget;
  }
  /** So `el.addEventListener('service:complete', (e) => e.detail.verificationId)` compiles as written. */
  interface HTMLElementEventMap {
    'service:complete': CustomEvent<WidgetCompleteDetail>;
    'service:error': CustomEvent<WidgetErrorDetail>;
  }
}
