/**
 * The consent page's words in the five GW2 languages, and the choice of one from the browser's
 * `Accept-Language` (English when none of the five is asked for). Placeholders `{name}` are
 * filled by the page, which escapes what it puts in. Also which key permissions each family of
 * tools needs, the one list the page shows. Pure.
 *
 * @module
 */

/** The languages the page speaks: the GW2 API's. */
export const CONSENT_LANGUAGES = ["en", "de", "fr", "es", "zh"] as const;
/** One of {@linkcode CONSENT_LANGUAGES}. */
export type ConsentLanguage = typeof CONSENT_LANGUAGES[number];

/** A family of tools and the key permissions it needs. */
export interface ToolFamily {
  /** Where its label is in {@linkcode ConsentText.families}. */
  readonly id:
    | "public"
    | "account"
    | "materials"
    | "wallet"
    | "holdings"
    | "armory"
    | "crafting"
    | "trading"
    | "progress";
  /** Permissions needed; `optional` ones add detail but are not required. */
  readonly needs: readonly string[];
  readonly optional?: readonly string[];
}

/** Which permissions each family of tools uses (a key always has `account`). */
export const TOOL_FAMILIES: readonly ToolFamily[] = [
  { id: "public", needs: [] },
  { id: "account", needs: ["account"], optional: ["progression"] },
  { id: "materials", needs: ["inventories"] },
  { id: "wallet", needs: ["wallet"] },
  { id: "holdings", needs: ["inventories", "characters"] },
  { id: "armory", needs: ["inventories", "unlocks"] },
  { id: "crafting", needs: ["unlocks", "characters"] },
  { id: "trading", needs: ["tradingpost"] },
  { id: "progress", needs: ["progression"], optional: ["wallet"] },
];

/**
 * The permissions some tool cannot do without: a key lacking one is explained before use. An
 * optional permission (progression, for the account summary's detail) is not: every tool still
 * works without it.
 */
export const REQUIRED_PERMISSIONS: readonly string[] = [
  ...new Set(TOOL_FAMILIES.flatMap((family) => family.needs)),
];

/**
 * The permissions of {@linkcode REQUIRED_PERMISSIONS} a key with `permissions` lacks.
 *
 * @example
 * ```ts
 * missingPermissions(["account", "wallet"]); // ["inventories", "characters", "unlocks"]
 * ```
 */
export function missingPermissions(permissions: readonly string[]): string[] {
  return REQUIRED_PERMISSIONS.filter((permission) => !permissions.includes(permission));
}

/** Every text of the page in one language. */
export interface ConsentText {
  readonly title: string;
  readonly lead: string;
  readonly unverified: string;
  readonly unnamed: string;
  readonly returnTo: string;
  readonly returnLocal: string;
  readonly keyLabel: string;
  readonly keyHelp: string;
  readonly keyPage: string;
  readonly keptHow: string;
  readonly permsTitle: string;
  readonly familyHead: string;
  readonly permsHead: string;
  readonly families: Readonly<Record<ToolFamily["id"], string>>;
  readonly none: string;
  readonly optional: string;
  readonly allow: string;
  readonly deny: string;
  readonly keyMissing: string;
  readonly keyMalformed: string;
  readonly keyRejected: string;
  readonly keyUnchecked: string;
  /** `{minutes}`: when to try again. */
  readonly tooManyChecks: string;
  readonly checksBusy: string;
  readonly tooManySignIns: string;
  readonly missingPerms: string;
  readonly stopTitle: string;
  readonly unknownClient: string;
  readonly badRedirect: string;
  readonly badRequest: string;
  readonly clientDocument: string;
  /** The link back to the app after a refused request. */
  readonly backTo: string;
  readonly expired: string;
  readonly used: string;
  readonly forged: string;
  readonly footer: string;
  /** A metadata-document client's checked domain: `{domain}`. */
  readonly verifiedDomain: string;
  /** The page after Allow for an app link: `{target}` (the app's link), `{app}` (its name). */
  readonly doneTitle: string;
  readonly doneApp: string;
  readonly doneLink: string;
  /** `{app}` when the client gave no name. */
  readonly theApp: string;
  /** The link to this server's front page, on every page that stops a sign-in. */
  readonly home: string;
}

const EN: ConsentText = {
  title: "Sign in to Priory MCP",
  lead: "{app} wants to use your Guild Wars 2 account through Priory MCP.",
  unverified: "name given by the app itself, not verified",
  unnamed: "An app that gave no name",
  returnTo: "Whatever you choose, you go back to {target}.",
  returnLocal:
    "{target} is on this computer: expect this only if you started the sign-in from an app running here.",
  keyLabel: "Your GW2 API key",
  keyHelp:
    "Create a key on ArenaNet's site at {link}, tick the permissions below, and paste it here.",
  keyPage: "account.arena.net/applications",
  keptHow:
    "Priory checks the key with the GW2 API, keeps it encrypted, uses it only to read your account for the tools, never shows it to the app or the AI, and deletes it when this sign-in is revoked or unused for 90 days.",
  permsTitle: "What each set of tools needs",
  familyHead: "Tools",
  permsHead: "Key permissions",
  families: {
    public: "Items, recipes, prices and their history, flips, crafting trees, legendaries, search",
    account: "Your account (priory_account)",
    materials: "Material storage (priory_account_materials)",
    wallet: "Wallet (priory_account_wallet)",
    holdings:
      "Where your items are (priory_find_items); what you own, in trees and the legendary ranking (useAccount)",
    armory: "The legendaries of your legendary armory (priory_legendaries useAccount, the ranking)",
    crafting: "What you can craft now, in the crafting profit scan (useAccount)",
    trading: "Your Trading Post: listings, orders, delivery box, earnings (priory_trading_post)",
    progress:
      "Dailies and weeklies done and left (priory_today); your Wizard's Vault purchases and collection progress",
  },
  none: "none",
  optional: "optional",
  allow: "Allow",
  deny: "Deny",
  keyMissing: "Enter your GW2 API key, or choose Deny.",
  keyMalformed: "This does not look like a GW2 API key. Copy the whole key from {link}.",
  keyRejected:
    "GW2 did not accept this key: it may be mistyped, deleted or expired. Copy it again, or create a new one at {link}.",
  keyUnchecked:
    "The GW2 API could not check the key just now, so nothing was stored. Try again in a minute.",
  tooManyChecks:
    "Too many keys were checked from your network just now. Try again in {minutes} min.",
  checksBusy: "The server is checking many keys just now. Try again in {minutes} min.",
  tooManySignIns: "This GW2 account signed in too many times just now. Try again in {minutes} min.",
  missingPerms:
    "This key lacks {perms}, so these tools will not work with it: {tools}. Enter the same key again and choose Allow to go on without them, or create a key with these permissions at {link}.",
  stopTitle: "This sign-in cannot go on",
  unknownClient:
    "The app that sent you here is not known to this server. Start the sign-in again from the app; if it keeps failing, remove this server from the app and add it again.",
  badRedirect:
    "The app asked to send you back to an address it did not register. For your safety the sign-in stops here.",
  badRequest: "The app's sign-in request cannot be used: {detail}",
  clientDocument:
    "The app's description (its client metadata document) could not be read or used. Start again from the app; if it keeps failing, tell its developer.",
  backTo: "Back to {target} (the app is told why)",
  expired: "This sign-in page has expired. Start again from your app.",
  used:
    "This sign-in form was already sent. If your app did not finish signing in, start again from it.",
  forged:
    "This form could not be verified as the one Priory showed you. Start again from your app.",
  footer: "Priory MCP is not affiliated with ArenaNet.",
  verifiedDomain:
    "Its description is published at {domain}: this address is checked, the name is not.",
  doneTitle: "Signed in",
  doneApp:
    "Your browser should now offer to open {target}. Once it has, you can close this tab and return to {app}.",
  doneLink: "{target} did not open? Open it from here.",
  theApp: "the app",
  home: "What Priory MCP is, and how to add it to your app",
};

const DE: ConsentText = {
  title: "Bei Priory MCP anmelden",
  lead: "{app} möchte über Priory MCP dein Guild-Wars-2-Konto verwenden.",
  unverified: "Name von der App selbst angegeben, nicht geprüft",
  unnamed: "Eine App ohne Namen",
  returnTo: "Wie auch immer du dich entscheidest, es geht zurück zu {target}.",
  returnLocal:
    "{target} liegt auf diesem Computer: erwarte das nur, wenn du die Anmeldung in einer App hier gestartet hast.",
  keyLabel: "Dein GW2-API-Schlüssel",
  keyHelp:
    "Erstelle auf der ArenaNet-Seite unter {link} einen Schlüssel, setze die Berechtigungen unten und füge ihn hier ein.",
  keyPage: "account.arena.net/applications",
  keptHow:
    "Priory prüft den Schlüssel bei der GW2-API, speichert ihn verschlüsselt, nutzt ihn nur, um dein Konto für die Werkzeuge zu lesen, zeigt ihn weder der App noch der KI und löscht ihn, wenn diese Anmeldung widerrufen oder 90 Tage nicht genutzt wird.",
  permsTitle: "Was jede Werkzeuggruppe braucht",
  familyHead: "Werkzeuge",
  permsHead: "Schlüsselberechtigungen",
  families: {
    public:
      "Gegenstände, Rezepte, Preise und ihr Verlauf, Flips, Herstellungsbäume, Legendäre, Suche",
    account: "Dein Konto (priory_account)",
    materials: "Materialienlager (priory_account_materials)",
    wallet: "Geldbörse (priory_account_wallet)",
    holdings:
      "Wo deine Gegenstände sind (priory_find_items); was du besitzt, in Bäumen und der Legendären-Rangliste (useAccount)",
    armory:
      "Die Legendären deiner Legendären Waffenkammer (priory_legendaries useAccount, die Rangliste)",
    crafting: "Was du jetzt herstellen kannst, in der Herstellungsgewinn-Suche (useAccount)",
    progress:
      "Erledigte und offene Tägliche und Wöchentliche (priory_today); deine Käufe im Gewölbe des Zauberers und dein Sammlungsfortschritt",
    trading:
      "Dein Handelsposten: Angebote, Kaufaufträge, Abholbereich, Einnahmen (priory_trading_post)",
  },
  none: "keine",
  optional: "optional",
  allow: "Erlauben",
  deny: "Ablehnen",
  keyMissing: "Gib deinen GW2-API-Schlüssel ein oder wähle Ablehnen.",
  keyMalformed:
    "Das sieht nicht wie ein GW2-API-Schlüssel aus. Kopiere den ganzen Schlüssel von {link}.",
  keyRejected:
    "GW2 hat diesen Schlüssel nicht angenommen: vielleicht vertippt, gelöscht oder abgelaufen. Kopiere ihn erneut oder erstelle einen neuen unter {link}.",
  keyUnchecked:
    "Die GW2-API konnte den Schlüssel gerade nicht prüfen, es wurde nichts gespeichert. Versuche es in einer Minute erneut.",
  tooManyChecks:
    "Aus deinem Netzwerk wurden gerade zu viele Schlüssel geprüft. Versuche es in {minutes} Min. erneut.",
  checksBusy: "Der Server prüft gerade sehr viele Schlüssel. Versuche es in {minutes} Min. erneut.",
  tooManySignIns:
    "Dieses GW2-Konto hat sich gerade zu oft angemeldet. Versuche es in {minutes} Min. erneut.",
  missingPerms:
    "Diesem Schlüssel fehlt {perms}, daher funktionieren diese Werkzeuge damit nicht: {tools}. Gib denselben Schlüssel erneut ein und wähle Erlauben, um ohne sie fortzufahren, oder erstelle unter {link} einen Schlüssel mit diesen Berechtigungen.",
  stopTitle: "Diese Anmeldung kann nicht fortgesetzt werden",
  unknownClient:
    "Die App, die dich hergeschickt hat, ist diesem Server nicht bekannt. Starte die Anmeldung erneut in der App; klappt es weiterhin nicht, entferne diesen Server aus der App und füge ihn neu hinzu.",
  badRedirect:
    "Die App wollte dich zu einer Adresse zurückschicken, die sie nicht registriert hat. Zu deiner Sicherheit endet die Anmeldung hier.",
  badRequest: "Die Anmeldeanfrage der App ist unbrauchbar: {detail}",
  clientDocument:
    "Die Beschreibung der App (ihr Client-Metadaten-Dokument) konnte nicht gelesen oder verwendet werden. Beginne erneut in der App; schlägt es weiter fehl, sag es ihren Entwicklern.",
  backTo: "Zurück zu {target} (die App erfährt den Grund)",
  expired: "Diese Anmeldeseite ist abgelaufen. Beginne erneut in deiner App.",
  used:
    "Dieses Anmeldeformular wurde bereits gesendet. Wenn deine App die Anmeldung nicht abgeschlossen hat, beginne dort erneut.",
  forged:
    "Dieses Formular konnte nicht als das von Priory angezeigte bestätigt werden. Beginne erneut in deiner App.",
  footer: "Priory MCP steht in keiner Verbindung zu ArenaNet.",
  verifiedDomain:
    "Ihre Beschreibung wird unter {domain} veröffentlicht: diese Adresse ist geprüft, der Name nicht.",
  doneTitle: "Angemeldet",
  doneApp:
    "Dein Browser sollte jetzt anbieten, {target} zu öffnen. Danach kannst du diesen Tab schließen und zu {app} zurückkehren.",
  doneLink: "{target} hat sich nicht geöffnet? Hier öffnen.",
  theApp: "die App",
  home: "Was Priory MCP ist und wie du es zu deiner App hinzufügst",
};

const FR: ConsentText = {
  title: "Se connecter à Priory MCP",
  lead: "{app} souhaite utiliser votre compte Guild Wars 2 via Priory MCP.",
  unverified: "nom donné par l’application elle-même, non vérifié",
  unnamed: "Une application sans nom",
  returnTo: "Quel que soit votre choix, vous retournerez vers {target}.",
  returnLocal:
    "{target} est sur cet ordinateur : attendez-vous à cela seulement si vous avez lancé la connexion depuis une application ici.",
  keyLabel: "Votre clé d’API GW2",
  keyHelp:
    "Créez une clé sur le site d’ArenaNet, {link}, cochez les autorisations ci-dessous et collez-la ici.",
  keyPage: "account.arena.net/applications",
  keptHow:
    "Priory vérifie la clé auprès de l’API GW2, la conserve chiffrée, ne l’utilise que pour lire votre compte pour les outils, ne la montre jamais à l’application ni à l’IA, et la supprime quand cette connexion est révoquée ou inutilisée pendant 90 jours.",
  permsTitle: "Ce dont chaque groupe d’outils a besoin",
  familyHead: "Outils",
  permsHead: "Autorisations de la clé",
  families: {
    public:
      "Objets, recettes, prix et leur historique, reventes, arbres de fabrication, légendaires, recherche",
    account: "Votre compte (priory_account)",
    materials: "Stockage de matériaux (priory_account_materials)",
    wallet: "Portefeuille (priory_account_wallet)",
    holdings:
      "Où sont vos objets (priory_find_items) ; ce que vous possédez, dans les arbres et le classement des légendaires (useAccount)",
    armory:
      "Les légendaires de votre arsenal légendaire (priory_legendaries useAccount, le classement)",
    progress:
      "Quotidiennes et hebdomadaires faites et restantes (priory_today) ; vos achats à la chambre forte du sorcier et vos collections",
    crafting:
      "Ce que vous pouvez fabriquer maintenant, dans la recherche de fabrications rentables (useAccount)",
    trading:
      "Votre comptoir : offres, ordres d'achat, objets à récupérer, gains (priory_trading_post)",
  },
  none: "aucune",
  optional: "facultatif",
  allow: "Autoriser",
  deny: "Refuser",
  keyMissing: "Saisissez votre clé d’API GW2, ou choisissez Refuser.",
  keyMalformed: "Cela ne ressemble pas à une clé d’API GW2. Copiez la clé entière depuis {link}.",
  keyRejected:
    "GW2 n’a pas accepté cette clé : elle est peut-être mal saisie, supprimée ou expirée. Copiez-la de nouveau, ou créez-en une sur {link}.",
  keyUnchecked:
    "L’API GW2 n’a pas pu vérifier la clé pour le moment ; rien n’a été enregistré. Réessayez dans une minute.",
  tooManyChecks:
    "Trop de clés ont été vérifiées depuis votre réseau à l’instant. Réessayez dans {minutes} min.",
  checksBusy: "Le serveur vérifie beaucoup de clés en ce moment. Réessayez dans {minutes} min.",
  tooManySignIns:
    "Ce compte GW2 s’est connecté trop de fois à l’instant. Réessayez dans {minutes} min.",
  missingPerms:
    "Il manque à cette clé {perms} ; ces outils ne fonctionneront donc pas avec elle : {tools}. Saisissez de nouveau la même clé et choisissez Autoriser pour continuer sans eux, ou créez une clé avec ces autorisations sur {link}.",
  stopTitle: "Cette connexion ne peut pas continuer",
  unknownClient:
    "L’application qui vous a envoyé ici est inconnue de ce serveur. Relancez la connexion depuis l’application ; si cela échoue encore, retirez ce serveur de l’application puis ajoutez-le de nouveau.",
  badRedirect:
    "L’application a demandé à vous renvoyer vers une adresse qu’elle n’a pas enregistrée. Pour votre sécurité, la connexion s’arrête ici.",
  badRequest: "La demande de connexion de l’application est inutilisable : {detail}",
  clientDocument:
    "La description de l’application (son document de métadonnées client) n’a pas pu être lue ni utilisée. Recommencez depuis l’application ; si cela échoue encore, prévenez ses développeurs.",
  backTo: "Retour vers {target} (l’application en apprend la raison)",
  expired: "Cette page de connexion a expiré. Recommencez depuis votre application.",
  used:
    "Ce formulaire de connexion a déjà été envoyé. Si votre application n’a pas terminé la connexion, recommencez depuis celle-ci.",
  forged:
    "Ce formulaire n’a pas pu être vérifié comme celui que Priory vous a montré. Recommencez depuis votre application.",
  footer: "Priory MCP n’est pas affilié à ArenaNet.",
  verifiedDomain:
    "Sa description est publiée sur {domain} : cette adresse est vérifiée, le nom ne l’est pas.",
  doneTitle: "Connexion réussie",
  doneApp:
    "Votre navigateur devrait maintenant proposer d’ouvrir {target}. Ensuite, vous pouvez fermer cet onglet et revenir à {app}.",
  doneLink: "{target} ne s’est pas ouvert ? Ouvrez-le d’ici.",
  theApp: "l’application",
  home: "Ce qu’est Priory MCP et comment l’ajouter à votre application",
};

const ES: ConsentText = {
  title: "Iniciar sesión en Priory MCP",
  lead: "{app} quiere usar tu cuenta de Guild Wars 2 a través de Priory MCP.",
  unverified: "nombre dado por la propia aplicación, no verificado",
  unnamed: "Una aplicación sin nombre",
  returnTo: "Elijas lo que elijas, volverás a {target}.",
  returnLocal:
    "{target} está en este ordenador: espéralo solo si iniciaste la sesión desde una aplicación que se ejecuta aquí.",
  keyLabel: "Tu clave de la API de GW2",
  keyHelp:
    "Crea una clave en el sitio de ArenaNet, {link}, marca los permisos de abajo y pégala aquí.",
  keyPage: "account.arena.net/applications",
  keptHow:
    "Priory comprueba la clave con la API de GW2, la guarda cifrada, solo la usa para leer tu cuenta para las herramientas, nunca se la muestra a la aplicación ni a la IA, y la borra cuando se revoca este inicio de sesión o pasa 90 días sin usarse.",
  permsTitle: "Lo que necesita cada grupo de herramientas",
  familyHead: "Herramientas",
  permsHead: "Permisos de la clave",
  families: {
    public:
      "Objetos, recetas, precios y su historial, reventas, árboles de fabricación, legendarios, búsqueda",
    account: "Tu cuenta (priory_account)",
    materials: "Almacén de materiales (priory_account_materials)",
    wallet: "Cartera (priory_account_wallet)",
    holdings:
      "Dónde están tus objetos (priory_find_items); lo que posees, en los árboles y la clasificación de legendarios (useAccount)",
    armory:
      "Los legendarios de tu armería legendaria (priory_legendaries useAccount, la clasificación)",
    progress:
      "Diarias y semanales hechas y pendientes (priory_today); tus compras en la cámara del mago y el progreso de tus colecciones",
    crafting:
      "Lo que puedes fabricar ahora, en la búsqueda de fabricaciones rentables (useAccount)",
    trading:
      "Tu bazar: ofertas, órdenes de compra, objetos por recoger, ganancias (priory_trading_post)",
  },
  none: "ninguno",
  optional: "opcional",
  allow: "Permitir",
  deny: "Denegar",
  keyMissing: "Introduce tu clave de la API de GW2 o elige Denegar.",
  keyMalformed: "Esto no parece una clave de la API de GW2. Copia la clave entera desde {link}.",
  keyRejected:
    "GW2 no aceptó esta clave: puede estar mal escrita, borrada o caducada. Cópiala de nuevo o crea otra en {link}.",
  keyUnchecked:
    "La API de GW2 no pudo comprobar la clave ahora mismo; no se guardó nada. Inténtalo de nuevo en un minuto.",
  tooManyChecks:
    "Se comprobaron demasiadas claves desde tu red hace un momento. Inténtalo de nuevo en {minutes} min.",
  checksBusy:
    "El servidor está comprobando muchas claves ahora mismo. Inténtalo de nuevo en {minutes} min.",
  tooManySignIns:
    "Esta cuenta de GW2 inició sesión demasiadas veces hace un momento. Inténtalo de nuevo en {minutes} min.",
  missingPerms:
    "A esta clave le falta {perms}, así que estas herramientas no funcionarán con ella: {tools}. Introduce la misma clave de nuevo y elige Permitir para seguir sin ellas, o crea una clave con estos permisos en {link}.",
  stopTitle: "Este inicio de sesión no puede continuar",
  unknownClient:
    "La aplicación que te envió aquí no es conocida por este servidor. Vuelve a iniciar sesión desde la aplicación; si sigue fallando, quita este servidor de la aplicación y añádelo de nuevo.",
  badRedirect:
    "La aplicación pidió devolverte a una dirección que no registró. Por tu seguridad, el inicio de sesión se detiene aquí.",
  badRequest: "La solicitud de inicio de sesión de la aplicación no se puede usar: {detail}",
  clientDocument:
    "No se pudo leer ni usar la descripción de la aplicación (su documento de metadatos de cliente). Empieza de nuevo desde la aplicación; si sigue fallando, avisa a sus desarrolladores.",
  backTo: "Volver a {target} (la aplicación sabrá el motivo)",
  expired: "Esta página de inicio de sesión ha caducado. Empieza de nuevo desde tu aplicación.",
  used:
    "Este formulario ya se envió. Si tu aplicación no terminó de iniciar sesión, empieza de nuevo desde ella.",
  forged:
    "No se pudo verificar que este formulario sea el que Priory te mostró. Empieza de nuevo desde tu aplicación.",
  footer: "Priory MCP no está afiliado a ArenaNet.",
  verifiedDomain:
    "Su descripción se publica en {domain}: esta dirección está verificada, el nombre no.",
  doneTitle: "Sesión iniciada",
  doneApp:
    "Tu navegador debería ofrecer ahora abrir {target}. Después puedes cerrar esta pestaña y volver a {app}.",
  doneLink: "¿No se abrió {target}? Ábrelo desde aquí.",
  theApp: "la aplicación",
  home: "Qué es Priory MCP y cómo añadirlo a tu aplicación",
};

const ZH: ConsentText = {
  title: "登录 Priory MCP",
  lead: "{app} 想通过 Priory MCP 使用你的激战2账号。",
  unverified: "名称由应用自行提供，未经验证",
  unnamed: "一个未提供名称的应用",
  returnTo: "无论你如何选择，都将返回 {target}。",
  returnLocal: "{target} 位于这台电脑上：只有当你在这里运行的应用中发起登录时才会如此。",
  keyLabel: "你的激战2 API 密钥",
  keyHelp: "在 ArenaNet 网站 {link} 创建密钥，勾选下方的权限，然后粘贴到这里。",
  keyPage: "account.arena.net/applications",
  keptHow:
    "Priory 会通过激战2 API 验证密钥，加密保存，只用于为这些工具读取你的账号，绝不会向应用或 AI 显示，并在此次登录被撤销或 90 天未使用时删除。",
  permsTitle: "每组工具需要的权限",
  familyHead: "工具",
  permsHead: "密钥权限",
  families: {
    public: "物品、配方、价格及其历史、倒卖、制作树、传奇、搜索",
    account: "你的账号（priory_account）",
    materials: "材料仓库（priory_account_materials）",
    wallet: "钱包（priory_account_wallet）",
    holdings:
      "你的物品在哪里（priory_find_items）；你拥有的物品，用于制作树和传奇排名（useAccount）",
    armory: "你的传奇军械库中的传奇（priory_legendaries useAccount、排名）",
    progress: "每日和每周的已完成与剩余（priory_today）；你在巫师宝库的购买和收藏进度",
    crafting: "你现在能制作的物品，用于制作利润扫描（useAccount）",
    trading: "你的交易站：出售挂单、求购订单、待领取物品、收益（priory_trading_post）",
  },
  none: "无",
  optional: "可选",
  allow: "允许",
  deny: "拒绝",
  keyMissing: "请输入你的激战2 API 密钥，或选择拒绝。",
  keyMalformed: "这看起来不像激战2 API 密钥。请从 {link} 复制完整的密钥。",
  keyRejected:
    "激战2 不接受此密钥：它可能输错、已删除或已过期。请重新复制，或在 {link} 创建新密钥。",
  keyUnchecked: "激战2 API 暂时无法验证此密钥，未保存任何内容。请一分钟后再试。",
  tooManyChecks: "刚才从你的网络验证了太多密钥。请在 {minutes} 分钟后再试。",
  checksBusy: "服务器正在验证大量密钥。请在 {minutes} 分钟后再试。",
  tooManySignIns: "此激战2账号刚才登录次数过多。请在 {minutes} 分钟后再试。",
  missingPerms:
    "此密钥缺少 {perms}，因此这些工具无法使用：{tools}。再次输入同一密钥并选择允许即可在没有它们的情况下继续，或在 {link} 创建具有这些权限的密钥。",
  stopTitle: "此次登录无法继续",
  unknownClient:
    "此服务器不认识将你引导到这里的应用。请在应用中重新开始登录；如果仍然失败，请从应用中移除此服务器后重新添加。",
  badRedirect: "该应用要求将你送回一个它未注册的地址。为了你的安全，登录到此为止。",
  badRequest: "该应用的登录请求无法使用：{detail}",
  clientDocument:
    "无法读取或使用该应用的描述（其客户端元数据文档）。请在应用中重新开始；如果仍然失败，请告知其开发者。",
  backTo: "返回 {target}（应用会得知原因）",
  expired: "此登录页面已过期。请在你的应用中重新开始。",
  used: "此登录表单已经提交过。如果你的应用没有完成登录，请在应用中重新开始。",
  forged: "无法确认此表单是 Priory 向你显示的那一个。请在你的应用中重新开始。",
  footer: "Priory MCP 与 ArenaNet 无关。",
  verifiedDomain: "其描述发布于 {domain}：此地址已验证，名称未验证。",
  doneTitle: "已登录",
  doneApp: "你的浏览器现在应会提示打开 {target}。打开后，你可以关闭此标签页并返回 {app}。",
  doneLink: "{target} 没有打开？从这里打开。",
  theApp: "该应用",
  home: "Priory MCP 是什么，以及如何将它添加到你的应用",
};

/** The texts per language. */
export const CONSENT_TEXT: Readonly<Record<ConsentLanguage, ConsentText>> = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  zh: ZH,
};

/**
 * The page's language for an `Accept-Language` header: the most preferred of the five (by
 * q-value, then order; `de-AT` counts as `de`, `zh-Hant` as `zh`), English when none is asked for.
 *
 * @example
 * ```ts
 * pickLanguage("fr-CH, fr;q=0.9, en;q=0.8"); // "fr"
 * pickLanguage("ja, ko"); // "en"
 * ```
 */
export function pickLanguage(header: string | null): ConsentLanguage {
  if (header === null) return "en";
  let best: { lang: ConsentLanguage; q: number } | undefined;
  for (const part of header.split(",").slice(0, 20)) {
    const [tag = "", ...params] = part.trim().split(";");
    const primary = tag.trim().toLowerCase().split("-")[0] ?? "";
    const lang = CONSENT_LANGUAGES.find((candidate) => candidate === primary);
    if (lang === undefined) continue;
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!Number.isFinite(q) || q <= 0) continue;
    if (best === undefined || q > best.q) best = { lang, q };
  }
  return best?.lang ?? "en";
}
