import {
  WIDGET_HINT_CODES,
  type CaptureRole,
  type DispatchedWidgetErrorCode,
  type WidgetErrorCode,
  type WidgetHintCode,
} from '@service/contract';

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
  /** One message per code a `service:error` can carry: the compiler catches a missing or unknown one. */
  errors: Record<DispatchedWidgetErrorCode, string>;
}

const en: Messages = {
  title: 'Verify your identity',
  introBody: 'We will take a photo of your ID document and a selfie to confirm it is you.',
  introSteps: 'It takes about a minute. Have your document at hand and find good light.',
  privacy: 'Your photos are used only to verify your identity and are processed on servers chosen by this site, never shared.',
  cameraPrimer: 'Next, your browser will ask to use the camera. Please allow it.',
  start: 'Start',
  cancel: 'Cancel',
  stepOf: (n, total) => `Step ${n} of ${total}`,
  documentFrontTitle: 'Front of your document',
  documentFrontHint: 'Place the front of your document inside the frame, flat and fully visible, without glare.',
  documentBackTitle: 'Back of your document',
  documentBackHint: 'Turn your document over and place the back inside the frame.',
  selfieTitle: 'Take a selfie',
  selfieHint: 'Look straight at the camera with your face inside the oval. Remove glasses or hats if you can.',
  livenessTitle: 'Follow the instructions',
  livenessReadyBody:
    'Now we check that you are here in person. You will be asked to move your head 4 times. Keep your face in the oval and move slowly.',
  livenessNoTurn: 'If you cannot turn your head, keep looking at the camera: each step moves on by itself after 10 seconds.',
  livenessReadyButton: 'I am ready',
  livenessAnchor: 'Look straight at the camera',
  livenessStepOf: (n, total) => `Step ${n} of ${total}`,
  livenessPose: {
    turn_left: 'Turn your head slowly to your left',
    turn_right: 'Turn your head slowly to your right',
    look_up: 'Tilt your head up a little',
    look_down: 'Tilt your head down a little',
  },
  livenessHold: 'Hold it there',
  livenessBurst: 'Hold still, taking photos',
  livenessCentre: 'Back to the centre, look at the camera',
  livenessTimedOut: 'Moving on: photos are being taken',
  livenessFeedback: {
    no_face: 'No face found. Put your face in the oval.',
    too_far: 'Come a little closer.',
    off_centre: 'Move your face to the centre of the oval.',
    too_dark: 'It is too dark. Find more light.',
    ok: 'Face found.',
  },
  connecting: 'Connecting…',
  startingCamera: 'Starting the camera…',
  capture: 'Take photo',
  retake: 'Retake',
  confirm: 'Use this photo',
  reviewTitle: 'Check your photos',
  reviewHint: 'Make sure every photo is sharp and complete. Retake any that are not.',
  photoOf: { docFront: 'Document front', docBack: 'Document back', selfie: 'Selfie' },
  retakePhoto: (what) => `Retake ${what.toLowerCase()}`,
  hintBlurry: 'This photo looks blurry. Retake it holding the camera steady.',
  hintNoFace: 'We could not find a face in this selfie. Retake it facing the camera.',
  submit: 'Submit',
  uploadingTitle: 'Sending your photos',
  uploadingBody: 'Please keep this page open.',
  doneTitle: 'Thank you',
  doneBody: 'Your photos were sent. You will be told the result shortly.',
  errorTitle: 'Something went wrong',
  cancelledTitle: 'Verification cancelled',
  retry: 'Try again',
  previewLabel: 'Camera preview',
  errors: {
    camera_denied: 'Camera access was blocked. Allow the camera for this site in your browser settings, then try again.',
    camera_unavailable: 'No camera could be used. Connect a camera or close other apps using it, then try again.',
    upload_failed: 'Your photos could not be sent. Check your connection and try again.',
    api_unreachable: 'The verification service cannot be reached right now. Please try again in a moment.',
    invalid_api_key: 'This verification is not set up correctly. Please contact the site.',
    insufficient_credits: 'Verification is not available right now. Please contact the site.',
    rate_limited: 'Too many attempts. Please wait a minute and try again.',
    user_cancelled: 'You cancelled the verification. You can start again at any time.',
    internal_error: 'Something unexpected happened. Please try again.',
  },
};

const es: Messages = {
  title: 'Verifica tu identidad',
  introBody: 'Tomaremos una foto de tu documento de identidad y un selfie para confirmar que eres tú.',
  introSteps: 'Tarda alrededor de un minuto. Ten tu documento a mano y busca buena luz.',
  privacy: 'Tus fotos solo se usan para verificar tu identidad y se procesan en servidores elegidos por este sitio; nunca se comparten.',
  cameraPrimer: 'A continuación, tu navegador pedirá permiso para usar la cámara. Por favor, acéptalo.',
  start: 'Empezar',
  cancel: 'Cancelar',
  stepOf: (n, total) => `Paso ${n} de ${total}`,
  documentFrontTitle: 'Anverso de tu documento',
  documentFrontHint: 'Coloca el anverso del documento dentro del marco, plano, completo y sin reflejos.',
  documentBackTitle: 'Reverso de tu documento',
  documentBackHint: 'Da la vuelta al documento y coloca el reverso dentro del marco.',
  selfieTitle: 'Hazte un selfie',
  selfieHint: 'Mira de frente a la cámara con la cara dentro del óvalo. Quítate gafas o gorra si puedes.',
  livenessTitle: 'Sigue las instrucciones',
  livenessReadyBody:
    'Ahora comprobamos que estás aquí en persona. Te pediremos que muevas la cabeza 4 veces. Mantén la cara en el óvalo y muévete despacio.',
  livenessNoTurn: 'Si no puedes girar la cabeza, sigue mirando a la cámara: cada paso avanza solo a los 10 segundos.',
  livenessReadyButton: 'Estoy listo',
  livenessAnchor: 'Mira de frente a la cámara',
  livenessStepOf: (n, total) => `Paso ${n} de ${total}`,
  livenessPose: {
    turn_left: 'Gira la cabeza despacio hacia tu izquierda',
    turn_right: 'Gira la cabeza despacio hacia tu derecha',
    look_up: 'Inclina la cabeza un poco hacia arriba',
    look_down: 'Inclina la cabeza un poco hacia abajo',
  },
  livenessHold: 'Mantén la postura',
  livenessBurst: 'No te muevas, tomando fotos',
  livenessCentre: 'Vuelve al centro y mira a la cámara',
  livenessTimedOut: 'Seguimos: tomando las fotos',
  livenessFeedback: {
    no_face: 'No se ve ninguna cara. Pon la cara en el óvalo.',
    too_far: 'Acércate un poco.',
    off_centre: 'Centra la cara en el óvalo.',
    too_dark: 'Hay poca luz. Busca un sitio más iluminado.',
    ok: 'Cara detectada.',
  },
  connecting: 'Conectando…',
  startingCamera: 'Iniciando la cámara…',
  capture: 'Hacer foto',
  retake: 'Repetir',
  confirm: 'Usar esta foto',
  reviewTitle: 'Revisa tus fotos',
  reviewHint: 'Comprueba que todas las fotos son nítidas y completas. Repite las que no lo sean.',
  photoOf: { docFront: 'Anverso del documento', docBack: 'Reverso del documento', selfie: 'Selfie' },
  retakePhoto: (what) => `Repetir ${what.toLowerCase()}`,
  hintBlurry: 'Esta foto parece borrosa. Repítela sujetando la cámara sin moverla.',
  hintNoFace: 'No encontramos una cara en este selfie. Repítelo mirando a la cámara.',
  submit: 'Enviar',
  uploadingTitle: 'Enviando tus fotos',
  uploadingBody: 'Mantén esta página abierta.',
  doneTitle: 'Gracias',
  doneBody: 'Tus fotos se han enviado. En breve se te comunicará el resultado.',
  errorTitle: 'Algo ha fallado',
  cancelledTitle: 'Verificación cancelada',
  retry: 'Reintentar',
  previewLabel: 'Vista previa de la cámara',
  errors: {
    camera_denied:
      'Se ha bloqueado el acceso a la cámara. Permite la cámara para este sitio en los ajustes del navegador y vuelve a intentarlo.',
    camera_unavailable: 'No se ha podido usar ninguna cámara. Conecta una o cierra otras aplicaciones que la usen y vuelve a intentarlo.',
    upload_failed: 'No se han podido enviar tus fotos. Comprueba tu conexión y vuelve a intentarlo.',
    api_unreachable: 'El servicio de verificación no está disponible ahora. Inténtalo de nuevo en un momento.',
    invalid_api_key: 'Esta verificación no está bien configurada. Contacta con el sitio.',
    insufficient_credits: 'La verificación no está disponible ahora. Contacta con el sitio.',
    rate_limited: 'Demasiados intentos. Espera un minuto y vuelve a intentarlo.',
    user_cancelled: 'Has cancelado la verificación. Puedes empezar de nuevo cuando quieras.',
    internal_error: 'Ha ocurrido algo inesperado. Inténtalo de nuevo.',
  },
};

export const translations: Record<string, Messages> = { en, es };

const isHint = (code: WidgetErrorCode): code is WidgetHintCode => (WIDGET_HINT_CODES as readonly WidgetErrorCode[]).includes(code);

/** The error screen's text for a code (a hint code never reaches it; it would read as internal_error). */
export function errorMessage(t: Messages, code: WidgetErrorCode): string {
  return isHint(code) ? t.errors.internal_error : t.errors[code];
}
