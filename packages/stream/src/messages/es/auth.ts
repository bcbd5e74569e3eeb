import type { Message } from '../../i18n/createTranslator';
import type { messages as en, popupMessages as enPopup } from '../en/auth';

/** Spanish: the auth bar. */
export const messages: Record<keyof typeof en, Message> = {
  'auth.signIn': 'Iniciar sesión',
  'auth.signUp': 'Registrarse',
  'auth.signOut': 'Cerrar sesión',
  'auth.signedInAs': 'Sesión iniciada como {username}',
  'auth.guestAs': 'Comentas como {username} (invitado)',
  'auth.suspended': 'Tu cuenta está suspendida.',
  'auth.notice.popupBlocked':
    'Tu navegador bloqueó la ventana de inicio de sesión. Permite las ventanas emergentes de este sitio e inténtalo de nuevo.',
  'auth.notice.ssoExpired':
    'El inicio de sesión de tu sitio ha caducado. Recarga la página o vuelve a iniciar sesión en el sitio para comentar.',
  'auth.notice.ssoInvalid':
    'El inicio de sesión de tu sitio no fue aceptado. Recarga la página o vuelve a iniciar sesión en el sitio para comentar.',
  'auth.notice.ssoFailed': 'No se pudo iniciar sesión con la cuenta de tu sitio. {reason}',
};

/** Spanish: the sign-in popup. */
export const popupMessages: Record<keyof typeof enPopup, Message> = {
  'auth.title.signin': 'Iniciar sesión',
  'auth.title.signup': 'Crear una cuenta',
  'auth.title.forgot': 'Restablecer la contraseña',
  'auth.email': 'Correo electrónico',
  'auth.username': 'Nombre de usuario',
  'auth.password': 'Contraseña',
  'auth.submit.forgot': 'Enviar enlace',
  'auth.code': 'Código',
  'auth.submit.confirm': 'Confirmar',
  'auth.signUp.sent':
    'Hemos enviado un correo a {email}. Escribe el código que contiene para terminar de crear tu cuenta (vale durante 30 minutos).',
  'auth.signUp.restart': 'Empezar de nuevo',
  'auth.signUp.finishing': 'Creando tu cuenta…',
  'auth.signUp.linkDone':
    'Tu cuenta está lista y has iniciado sesión donde empezaste. Puedes cerrar esta pestaña.',
  'auth.signUp.linkReady':
    'Tu cuenta está lista. Vuelve a la página de la que venías e inicia sesión con tu correo y contraseña.',
  'auth.switch.signup': 'Crear una cuenta',
  'auth.switch.signin': 'Ya tengo una cuenta',
  'auth.switch.forgot': '¿Has olvidado tu contraseña?',
  'auth.invalid.email': 'Escribe un correo como nombre@ejemplo.com.',
  'auth.invalid.emailLength': 'Un correo puede tener como máximo {max} caracteres.',
  'auth.invalid.usernameLength': 'Un nombre de usuario tiene de {min} a {max} caracteres.',
  'auth.invalid.usernameCharacters':
    'Un nombre de usuario solo puede contener letras, dígitos, «_» y «.».',
  'auth.invalid.passwordLength': 'Usa al menos {min} caracteres.',
  'auth.invalid.passwordRequired': 'Escribe tu contraseña.',
  'auth.invalid.code': 'Escribe los {digits} dígitos del correo.',
  'auth.forgot.sent':
    'Si hay una cuenta con {email}, le hemos enviado un enlace para restablecer la contraseña. Revisa tu bandeja de entrada.',
  'auth.done': 'Has iniciado sesión; puedes cerrar esta ventana.',
  'auth.provider.continue': 'Continuar con {name}',
  'auth.provider.or': 'o usa tu correo',
  'auth.provider.finishing': 'Iniciando sesión…',
  'auth.provider.orphaned':
    'No se conectó nada: los comentarios desde los que se abrió esta ventana ya no están. Abre tu perfil allí y vuelve a intentarlo.',
  'auth.provider.connected':
    '{provider} ya está conectado a tu cuenta: puedes iniciar sesión con él. Puedes cerrar esta ventana.',
  'auth.link.submit': 'Conectar e iniciar sesión',
  'auth.link.email': 'Envíame un enlace por correo',
  'auth.link.sent':
    'Enviamos un enlace a {email}. Ábrelo para conectar {provider} y luego vuelve a iniciar sesión con {provider}.',
};
