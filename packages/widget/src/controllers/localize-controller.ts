import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { en } from '../i18n/en.js';
import { LOCALE_LOADERS, resolveLocale, RTL_LOCALES, type Locale, type Messages } from '../i18n/messages.js';

export { resolveLocale };

/** Messages loaded so far, shared by every widget on the page. */
const loaded = new Map<Locale, Messages>([['en', en]]);
const loading = new Map<Locale, Promise<void>>();

/**
 * Picks the messages of the host's `locale` (its language; anything unknown is English). English
 * is in the core bundle; another language is a chunk loaded on first use, and until it arrives
 * `ready` is false (the host renders nothing rather than English).
 */
export class LocalizeController implements ReactiveController {
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly locale: () => string | undefined,
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  get lang(): Locale {
    return resolveLocale(this.locale());
  }

  get dir(): 'rtl' | 'ltr' {
    return RTL_LOCALES.includes(this.lang) ? 'rtl' : 'ltr';
  }

  /** True once this language's messages are here; otherwise starts loading them. */
  get ready(): boolean {
    const lang = this.lang;
    if (loaded.has(lang)) return true;
    if (!loading.has(lang)) {
      const load = LOCALE_LOADERS[lang as Exclude<Locale, 'en'>]()
        .then((m) => void loaded.set(lang, m.messages))
        // A chunk that cannot load (offline, a blocked host): English rather than nothing.
        .catch(() => void loaded.set(lang, en));
      loading.set(lang, load);
    }
    void loading.get(lang)!.then(() => this.host.requestUpdate());
    return false;
  }

  get t(): Messages {
    return loaded.get(this.lang) ?? en;
  }
}
