import type { CaptureRole, DispatchedWidgetErrorCode, WidgetErrorCode } from '@service/contract';
import type { Guidance } from '../guidance/advice.js';

/** Every string the widget shows. Each locale is complete: a test checks the keys match. */
export interface Messages {
  title: string;
  introBody: string;
  introSteps: string;
  privacy: string;
  cameraPrimer: string;
  start: string;
  cancel: string;
  stepOf: (n: number, total: number) => string;
  documentFrontTitle: string;
  documentFrontHint: string;
  documentBackTitle: string;
  documentBackHint: string;
  /** The document guidance's advice (`data-guidance`), in words. */
  guidance: Record<Guidance, string>;
  /** `ready` when the photo is not taken automatically (`manual-capture`). */
  guidanceReadyManual: string;
  autoCaptureNote: string;
  selfieTitle: string;
  selfieHint: string;
  livenessTitle: string;
  livenessReadyBody: string;
  livenessNoTurn: string;
  livenessReadyButton: string;
  livenessAnchor: string;
  livenessStepOf: (n: number, total: number) => string;
  livenessPose: Record<'turn_left' | 'turn_right' | 'look_up' | 'look_down', string>;
  livenessHold: string;
  livenessBurst: string;
  livenessCentre: string;
  livenessTimedOut: string;
  livenessFeedback: Record<'no_face' | 'too_far' | 'off_centre' | 'too_dark' | 'ok', string>;
  connecting: string;
  startingCamera: string;
  capture: string;
  retake: string;
  confirm: string;
  reviewTitle: string;
  reviewHint: string;
  photoOf: Record<CaptureRole, string>;
  retakePhoto: (what: string) => string;
  hintBlurry: string;
  hintNoFace: string;
  submit: string;
  uploadingTitle: string;
  uploadingBody: string;
  doneTitle: string;
  doneBody: string;
  errorTitle: string;
  cancelledTitle: string;
  retry: string;
  previewLabel: string;
  /** Continue on a phone (`cross-device`): the offer, the desktop's screen, the phone's end. */
  handoffButton: string;
  handoffOffer: string;
  handoffTitle: string;
  handoffBody: string;
  handoffQrLabel: string;
  handoffLinkLabel: string;
  copyLink: string;
  linkCopied: string;
  handoffWaiting: string;
  handoffInProgress: string;
  handoffExpired: string;
  phoneDoneTitle: string;
  phoneDoneBody: string;
  phoneLinkInUse: string;
  phoneLinkExpired: string;
  /** One message per code a `service:error` can carry: the compiler catches a missing or unknown one. */
  errors: Record<DispatchedWidgetErrorCode, string>;
}

/** The languages of `locale` (decisions.md "Widget: languages"); Arabic is laid out right to left. */
export const LOCALES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'pl', 'tr', 'ar', 'ja', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];
export const RTL_LOCALES: readonly Locale[] = ['ar'];

/** Each language but English is a chunk of its own, loaded when a widget asks for it. */
export const LOCALE_LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<{ messages: Messages }>> = {
  es: () => import('./locales/es.js'),
  fr: () => import('./locales/fr.js'),
  de: () => import('./locales/de.js'),
  it: () => import('./locales/it.js'),
  pt: () => import('./locales/pt.js'),
  nl: () => import('./locales/nl.js'),
  pl: () => import('./locales/pl.js'),
  tr: () => import('./locales/tr.js'),
  ar: () => import('./locales/ar.js'),
  ja: () => import('./locales/ja.js'),
  zh: () => import('./locales/zh.js'),
};

/** `pt-BR` -> `pt`, `zh-Hans-CN` -> `zh`; anything unknown -> `en`. */
export function resolveLocale(requested: string | undefined): Locale {
  const language = (requested ?? 'en').toLowerCase().split(/[-_]/)[0]!;
  return (LOCALES as readonly string[]).includes(language) ? (language as Locale) : 'en';
}

/** The error screen's text for a code (a hint code never reaches it; it would read as internal_error). */
export function errorMessage(t: Messages, code: WidgetErrorCode): string {
  return Object.hasOwn(t.errors, code) ? t.errors[code as DispatchedWidgetErrorCode] : t.errors.internal_error;
}
