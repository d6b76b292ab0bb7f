import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { translations, type Messages } from '../i18n/messages.js';

/** Picks the messages of the host's `locale` (exact, then language, then English). */
export class LocalizeController implements ReactiveController {
  constructor(
    host: ReactiveControllerHost,
    private readonly locale: () => string | undefined,
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  get lang(): string {
    return resolveLocale(this.locale());
  }

  get t(): Messages {
    return translations[this.lang]!;
  }
}

export function resolveLocale(requested: string | undefined): string {
  const wanted = (requested ?? 'en').toLowerCase();
  if (translations[wanted]) return wanted;
  const language = wanted.split('-')[0]!;
  return translations[language] ? language : 'en';
}
