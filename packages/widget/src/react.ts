/**
 * `import '@service/widget/react'`: registers `<service-widget>` and declares it in React 19's
 * JSX, so `<service-widget publishable-key="pk_test_..." />` type-checks in a React app. React 19
 * passes attributes to custom elements as written and listens to their events through `ref`.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { DocumentType } from '@service/contract';
import type { ServiceWidget } from './service-widget.js';

export * from './index.js';

/** The element's attributes as React writes them (the same names as in HTML). */
export interface ServiceWidgetAttributes extends DetailedHTMLProps<HTMLAttributes<ServiceWidget>, ServiceWidget> {
  'publishable-key'?: string;
  'api-base'?: string;
  'user-ref'?: string;
  'full-name'?: string;
  'document-type'?: DocumentType;
  country?: string;
  'document-back'?: boolean;
  'active-liveness'?: boolean;
  locale?: string;
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'service-widget': ServiceWidgetAttributes;
    }
  }
}
