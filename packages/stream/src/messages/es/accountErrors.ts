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
  'error.SIGN_IN_DENIED':
    'No autorizaste el inicio de sesión, así que no se compartió nada. Inténtalo cuando quieras.',
  'error.SIGN_IN_EXPIRED':
    'Este inicio de sesión caducó o se empezó en otra ventana. Vuelve a empezar.',
  'error.SIGN_IN_PROVIDER_UNREACHABLE':
    'No se pudo contactar con el servicio de inicio de sesión. Inténtalo de nuevo en un momento.',
  'error.SIGN_IN_PROVIDER_FAILED':
    'El servicio de inicio de sesión envió una respuesta que no podemos aceptar. Inténtalo de nuevo.',
  'error.SIGN_IN_PROVIDER_DISABLED':
    'Esa forma de iniciar sesión no está disponible en este sitio.',
  'error.SIGN_IN_IDENTITY_TAKEN': 'Esa cuenta ya está conectada a otra cuenta de aquí.',
  'error.SIGN_IN_LINK_REQUIRED':
    'Ya hay una cuenta aquí con {email}. Demuestra que es tuya para conectarle {provider}.',
  'error.GUEST_NAME_TAKEN': 'Un miembro usa ese nombre, o uno que se le parece. Elige otro.',
  'error.GUEST_COMMENTS_OFF': 'Comentar como invitado está desactivado. Inicia sesión.',
  'error.GUEST_NOT_ALLOWED': 'Los invitados solo pueden publicar. Regístrate para hacerlo.',
  'error.IP_BANNED': 'Los moderadores han pausado las publicaciones desde tu red.',
};
