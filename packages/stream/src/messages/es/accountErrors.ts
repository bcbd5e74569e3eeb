import type { Message } from '../../i18n/createTranslator';
import type { messages as en } from '../en/accountErrors';

/** Spanish: the errors only the account forms meet. */
export const messages: Record<keyof typeof en, Message> = {
  'error.USERNAME_TAKEN': 'Ese nombre de usuario ya está en uso.',
  'error.EMAIL_TAKEN': 'Ese correo ya tiene una cuenta. Inicia sesión.',
  'error.INVALID_CREDENTIALS': 'El correo y la contraseña no coinciden.',
  'error.ALREADY_INSTALLED': 'Parley ya está instalado.',
  'error.UPLOAD_TOO_LARGE': 'Ese archivo es demasiado grande.',
  'error.TWO_FACTOR_CODE_REQUIRED': 'Escribe el código de tu app de autenticación.',
  'error.TWO_FACTOR_CODE_INVALID':
    'Ese código no es correcto o ya se usó. Escribe el que muestra tu app ahora, o un código de recuperación.',
  'error.CODE_INVALID':
    'Ese código no es correcto o ha caducado. Revisa el último correo o empieza de nuevo para recibir otro.',
  'error.CHALLENGE_REQUIRED': 'Comprobando este navegador tras muchos intentos fallidos…',
  'error.UNSUPPORTED_MEDIA_TYPE': 'Se rechazó la petición: no se envió como JSON.',
  'error.UPLOAD_TYPE_NOT_ALLOWED':
    'Ese tipo de archivo no está permitido. Usa PNG, JPEG, GIF o WebP.',
};
