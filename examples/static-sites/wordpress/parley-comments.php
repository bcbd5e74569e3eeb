<?php
/**
 * Parley's comment thread in a WordPress theme, with the signed-in WordPress user signed in to
 * Parley too (SSO). Plain PHP, no Composer package.
 *
 * In place of the theme's comments (functions.php):
 *   add_filter('comments_template', fn () => get_theme_file_path('parley-comments.php'));
 * or include it from comments.php. In wp-config.php:
 *   define('PARLEY_URL', 'https://comments.example.com'); // the Parley server, no trailing slash
 *   define('PARLEY_SSO_SECRET', '…'); // a key of the site (Configure → Organization and sites); optional
 *   define('PARLEY_THEME', 'auto');   // optional: light, dark or auto
 * A post's custom field parley_story_id (optional), the story's id in Parley, keeps a thread whose
 * page moved.
 */

// Defined once: a theme may include its comments template more than once in a request.
if (!function_exists('parley_sso_token')) {
    // How long a token may wait for the reader to scroll to the thread, in seconds; wp-config.php
    // may set another (Parley refuses more than the site allows, 24 hours by default).
    defined('PARLEY_SSO_TOKEN_SECONDS') || define('PARLEY_SSO_TOKEN_SECONDS', 3600);

    /** Base64url without padding, the encoding of a JWT's parts. */
    function parley_base64url(string $bytes): string
    {
        return rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=');
    }

    /**
     * A name Parley accepts: 3 to 30 letters, digits, `_` or `.`. WordPress display names may
     * hold spaces and other signs, which become `_`.
     */
    function parley_username(object $user): string
    {
        $name = trim(preg_replace('/[^\p{L}\p{N}_.]+/u', '_', $user->display_name), '_');
        // Characters, not bytes, and without mbstring, which not every PHP has.
        preg_match('/^.{0,30}/u', $name, $first);
        return preg_match('/^.{3}/u', $first[0]) ? $first[0] : 'user_' . $user->ID;
    }

    /**
     * Parley's SSO token for a WordPress user: a JWT signed with HS256 over
     * { user: { id, email, username }, iat, exp, jti }. Parley signs the reader in with each token
     * once, so every page view gets a new one: the random jti keeps two tokens made in the same
     * second apart.
     */
    function parley_sso_token(object $user, string $secret, int $now): string
    {
        $header = ['alg' => 'HS256', 'typ' => 'JWT'];
        $claims = [
            'user' => [
                'id' => (string) $user->ID,
                'email' => $user->user_email,
                'username' => parley_username($user),
            ],
            'iat' => $now,
            'exp' => $now + PARLEY_SSO_TOKEN_SECONDS,
            'jti' => bin2hex(random_bytes(16)),
        ];
        $json = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR;
        $signed = parley_base64url(json_encode($header, $json)) . '.'
            . parley_base64url(json_encode($claims, $json));
        return $signed . '.' . parley_base64url(hash_hmac('sha256', $signed, $secret, true));
    }
}

if (defined('PARLEY_URL')) :
    $parley_token = '';
    if (defined('PARLEY_SSO_SECRET') && is_user_logged_in()) {
        $parley_token = parley_sso_token(wp_get_current_user(), PARLEY_SSO_SECRET, time());
        // The token is a credential: a cached copy of this page would hand it to the next
        // reader. WordPress already marks pages for signed-in users no-cache (and page caches
        // skip them), but by now its headers are usually sent; a full-page cache in front (a CDN)
        // must bypass requests with the wordpress_logged_in_ cookie.
        if (!headers_sent()) {
            nocache_headers();
        }
    }
    $parley_story_id = get_post_meta(get_the_ID(), 'parley_story_id', true);
    ?>
<div id="parley-thread" data-story-url="<?php echo esc_url(get_permalink()); ?>"
    <?php if ($parley_story_id) : ?> data-story-id="<?php echo esc_attr($parley_story_id); ?>"<?php endif; ?>
    data-locale="<?php echo esc_attr(get_bloginfo('language')); ?>"
    <?php if (defined('PARLEY_THEME')) : ?> data-theme="<?php echo esc_attr(PARLEY_THEME); ?>"<?php endif; ?>
    <?php if ($parley_token !== '') : ?> data-access-token="<?php echo esc_attr($parley_token); ?>"<?php endif; ?>></div>
<script src="<?php echo esc_url(PARLEY_URL . '/embed.js'); ?>" async></script>
<?php endif;
