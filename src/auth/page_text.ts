/**
 * The words of the public server's player pages in the five GW2 languages: the front page, the
 * sign-out page, the gw2.me sign-in on the consent page, and the line naming who runs the server.
 * The language is chosen as the consent page's is (`pickLanguage` in `consent_text.ts`), whose
 * table of tools and permissions, key-page link and key errors these pages share. Placeholders
 * `{name}` are filled by the page, which escapes what it puts in. Pure.
 *
 * @module
 */

import type { ConsentLanguage } from "./consent_text.ts";

/** The apps the front page says how to add the server to, in its order. */
export const HOSTS = [
  { id: "claude", name: "Claude" },
  { id: "chatgpt", name: "ChatGPT" },
  { id: "vscode", name: "VS Code" },
  { id: "cursor", name: "Cursor" },
  { id: "claudeCode", name: "Claude Code" },
] as const;

/** One of {@linkcode HOSTS}. */
export type HostId = typeof HOSTS[number]["id"];

/** Every text of the player pages in one language. */
export interface PageText {
  /** "Run by {name}" (the operator line). */
  readonly runBy: string;
  readonly contact: string;

  readonly frontTitle: string;
  readonly frontLead: string;
  readonly addTitle: string;
  readonly addressLabel: string;
  /** How to add the server in each app (a configuration snippet follows some). */
  readonly hosts: Readonly<Record<HostId, string>>;
  readonly signInTitle: string;
  /** `{link}`: ArenaNet's key page. */
  readonly signIn: string;
  readonly signInGw2me: string;
  readonly storedTitle: string;
  readonly stored: string;
  readonly storedGw2me: string;
  readonly storedEnds: string;
  readonly signOutTitle: string;
  /** `{link}`: the sign-out page. */
  readonly signOutLead: string;
  readonly signOutLink: string;

  readonly signoutTitle: string;
  readonly signoutLead: string;
  readonly signoutKeyLabel: string;
  /** `{link}`: ArenaNet's key page. */
  readonly signoutKeyHelp: string;
  readonly signoutButton: string;
  readonly signoutGw2me: string;
  /** `{account}`. */
  readonly signoutDoneOne: string;
  /** `{count}`, `{account}`. */
  readonly signoutDoneMany: string;
  /** `{account}`. */
  readonly signoutDoneNone: string;
  readonly signoutKeyMissing: string;
  readonly signoutUnchecked: string;
  readonly signoutLimited: string;
  readonly signoutExpired: string;
  readonly signoutUsed: string;
  readonly signoutForged: string;
  readonly signoutAgain: string;
  readonly aboutLink: string;

  readonly gw2meOr: string;
  readonly gw2meButton: string;
  readonly gw2meNote: string;
  readonly gw2meDenied: string;
  readonly gw2meFailed: string;
  readonly gw2meNoAccount: string;
}

const EN: PageText = {
  runBy: "Run by {name}",
  contact: "Contact and privacy",

  frontTitle: "Priory MCP: Guild Wars 2 tools for your AI app",
  frontLead:
    "Priory MCP gives AI apps such as Claude, ChatGPT, VS Code and Cursor tools over the Guild Wars 2 API: items, recipes and Trading Post prices with their history, crafting trees priced down to the last material, legendaries, flips and crafting profit \u2014 and, once you sign in, your own account: where each item is, your Trading Post's orders and earnings, the dailies and weeklies left, the Wizard's Vault, your collections, and what your holdings mean for a legendary.",
  addTitle: "Add it to your app",
  addressLabel: "The address to add:",
  hosts: {
    claude:
      "Settings \u2192 Connectors \u2192 Add custom connector: a name of your choice and the address above; leave the OAuth fields empty. Then Connect, and sign in on the page that opens.",
    chatgpt:
      "Settings \u2192 Apps & Connectors \u2192 Advanced settings: turn on developer mode. Then Create: the address above as the MCP server URL, authentication OAuth. Choose it in a chat to sign in.",
    vscode:
      "Command palette \u2192 MCP: Add Server\u2026 \u2192 HTTP, then the address above; or add it to .vscode/mcp.json:",
    cursor:
      "Add it to ~/.cursor/mcp.json (Settings \u2192 MCP \u2192 Add new MCP server opens it), then click \u201cNeeds login\u201d beside it:",
    claudeCode: "In a terminal:",
  },
  signInTitle: "Signing in",
  signIn:
    "The first time your app connects, it opens a Priory page in your browser. Paste a GW2 API key there \u2014 create one at {link} with the permissions below \u2014 and choose Allow. The app never sees the key.",
  signInGw2me:
    "Or choose \u201cSign in with gw2.me\u201d on that page and pick your account there: nothing to copy.",
  storedTitle: "What this server stores",
  stored:
    "Your key, encrypted with the server's secret and tied to that one sign-in, and nothing else about you: no e-mail address, no password, no conversation. Your account is known only by a pseudonym, so that all its sign-ins share one fair share of requests; answers read from your account are kept at most 5 minutes to save requests.",
  storedGw2me:
    "Signed in with gw2.me, it keeps gw2.me's sign-in token instead of a key, encrypted the same way, and reads your account with short-lived keys gw2.me makes from it.",
  storedEnds:
    "A stored key is deleted when the app's sign-in is revoked, after 90 days without use, or when you sign out below.",
  signOutTitle: "Signing out",
  signOutLead:
    "To end every sign-in of your account on this server at once, in every app, and delete the stored keys: {link}.",
  signOutLink: "sign out everywhere",

  signoutTitle: "Sign out of Priory MCP",
  signoutLead:
    "End every sign-in of your Guild Wars 2 account on this server, in every app, and delete the keys stored for them.",
  signoutKeyLabel: "A GW2 API key of your account",
  signoutKeyHelp:
    "Any key of the account will do, even a new one: Priory asks the GW2 API whose account it is, then forgets it. Keys are at {link}.",
  signoutButton: "Sign out everywhere",
  signoutGw2me:
    "Signed in with gw2.me? A key of the same account works here too; or remove Priory from your authorized applications on gw2.me.",
  signoutDoneOne:
    "Signed out: 1 sign-in of {account} ended and its stored key deleted. The app will ask you to sign in again.",
  signoutDoneMany:
    "Signed out: {count} sign-ins of {account} ended and their stored keys deleted. The apps will ask you to sign in again.",
  signoutDoneNone:
    "Nothing to end: no sign-in of {account} is active on this server, and nothing of it is stored.",
  signoutKeyMissing: "Enter a GW2 API key of the account to sign out.",
  signoutUnchecked:
    "The GW2 API could not check the key just now, so nothing was ended. Try again in a minute.",
  signoutLimited: "Too many keys were checked from here just now. Wait a minute and try again.",
  signoutExpired: "This page has expired. Load it again to sign out.",
  signoutUsed: "This form was already sent. Load the page again to sign out.",
  signoutForged:
    "This form could not be verified as the one Priory showed you. Load the page again to sign out.",
  signoutAgain: "Sign-out page",
  aboutLink: "About this server",

  gw2meOr:
    "No key at hand? Sign in with gw2.me instead: you choose your account there, and Priory receives short-lived keys for it.",
  gw2meButton: "Sign in with gw2.me",
  gw2meNote:
    "gw2.me is a community sign-in for Guild Wars 2 apps, run by neither Priory nor ArenaNet.",
  gw2meDenied: "The sign-in with gw2.me was cancelled. Try again, or paste a key instead.",
  gw2meFailed:
    "gw2.me could not complete the sign-in just now. Try again in a minute, or paste a key instead.",
  gw2meNoAccount:
    "gw2.me shared no Guild Wars 2 account whose key has the permissions Priory asks for. Add one on gw2.me and try again, or paste a key instead.",
};

const DE: PageText = {
  runBy: "Betrieben von {name}",
  contact: "Kontakt und Datenschutz",

  frontTitle: "Priory MCP: Guild-Wars-2-Werkzeuge für deine KI-App",
  frontLead:
    "Priory MCP gibt KI-Apps wie Claude, ChatGPT, VS Code und Cursor Werkzeuge für die Guild-Wars-2-API: Gegenstände, Rezepte und Handelsposten-Preise samt Verlauf, bis zum letzten Material bepreiste Herstellungsbäume, Legendäre, Flips und Herstellungsgewinn \u2013 und nach der Anmeldung dein eigenes Konto: wo jeder Gegenstand liegt, Aufträge und Einnahmen am Handelsposten, offene Tägliche und Wöchentliche, das Gewölbe des Zauberers, deine Sammlungen und was dein Besitz für eine Legendäre bedeutet.",
  addTitle: "Zu deiner App hinzufügen",
  addressLabel: "Die Adresse zum Hinzufügen:",
  hosts: {
    claude:
      "Einstellungen \u2192 Konnektoren \u2192 Benutzerdefinierten Konnektor hinzufügen: ein beliebiger Name und die Adresse oben; die OAuth-Felder bleiben leer. Dann Verbinden und auf der sich öffnenden Seite anmelden.",
    chatgpt:
      "Einstellungen \u2192 Apps & Konnektoren \u2192 Erweiterte Einstellungen: Entwicklermodus einschalten. Dann Erstellen: die Adresse oben als MCP-Server-URL, Authentifizierung OAuth. Wähle ihn in einem Chat, um dich anzumelden.",
    vscode:
      "Befehlspalette \u2192 MCP: Add Server\u2026 \u2192 HTTP, dann die Adresse oben; oder in .vscode/mcp.json eintragen:",
    cursor:
      "In ~/.cursor/mcp.json eintragen (Einstellungen \u2192 MCP \u2192 Add new MCP server öffnet die Datei), dann daneben auf \u201eNeeds login\u201c klicken:",
    claudeCode: "Im Terminal:",
  },
  signInTitle: "Anmelden",
  signIn:
    "Wenn deine App sich zum ersten Mal verbindet, öffnet sie eine Priory-Seite in deinem Browser. Füge dort einen GW2-API-Schlüssel ein \u2013 erstelle ihn unter {link} mit den Berechtigungen unten \u2013 und wähle Erlauben. Die App sieht den Schlüssel nie.",
  signInGw2me:
    "Oder wähle dort \u201eMit gw2.me anmelden\u201c und such dir dein Konto aus: nichts zu kopieren.",
  storedTitle: "Was dieser Server speichert",
  stored:
    "Deinen Schlüssel, verschlüsselt mit dem Geheimnis des Servers und an diese eine Anmeldung gebunden, und sonst nichts über dich: keine E-Mail-Adresse, kein Passwort, keine Unterhaltung. Dein Konto kennt er nur unter einem Pseudonym, damit sich alle seine Anmeldungen einen fairen Anteil an Anfragen teilen; Antworten aus deinem Konto werden höchstens 5 Minuten aufbewahrt, um Anfragen zu sparen.",
  storedGw2me:
    "Bei einer Anmeldung mit gw2.me speichert er statt eines Schlüssels das Anmelde-Token von gw2.me, genauso verschlüsselt, und liest dein Konto mit kurzlebigen Schlüsseln, die gw2.me daraus erstellt.",
  storedEnds:
    "Ein gespeicherter Schlüssel wird gelöscht, wenn die Anmeldung der App widerrufen wird, nach 90 Tagen ohne Nutzung oder wenn du dich unten abmeldest.",
  signOutTitle: "Abmelden",
  signOutLead:
    "Um alle Anmeldungen deines Kontos auf diesem Server auf einmal zu beenden, in jeder App, und die gespeicherten Schlüssel zu löschen: {link}.",
  signOutLink: "überall abmelden",

  signoutTitle: "Von Priory MCP abmelden",
  signoutLead:
    "Beende jede Anmeldung deines Guild-Wars-2-Kontos auf diesem Server, in jeder App, und lösche die dafür gespeicherten Schlüssel.",
  signoutKeyLabel: "Ein GW2-API-Schlüssel deines Kontos",
  signoutKeyHelp:
    "Jeder Schlüssel des Kontos genügt, auch ein neuer: Priory fragt die GW2-API, wessen Konto es ist, und vergisst ihn dann. Schlüssel findest du unter {link}.",
  signoutButton: "Überall abmelden",
  signoutGw2me:
    "Mit gw2.me angemeldet? Ein Schlüssel desselben Kontos funktioniert auch hier; oder entferne Priory auf gw2.me aus deinen autorisierten Anwendungen.",
  signoutDoneOne:
    "Abgemeldet: 1 Anmeldung von {account} beendet und ihr gespeicherter Schlüssel gelöscht. Die App wird dich bitten, dich erneut anzumelden.",
  signoutDoneMany:
    "Abgemeldet: {count} Anmeldungen von {account} beendet und ihre gespeicherten Schlüssel gelöscht. Die Apps werden dich bitten, dich erneut anzumelden.",
  signoutDoneNone:
    "Nichts zu beenden: Auf diesem Server ist keine Anmeldung von {account} aktiv, und nichts davon ist gespeichert.",
  signoutKeyMissing: "Gib einen GW2-API-Schlüssel des Kontos ein, das abgemeldet werden soll.",
  signoutUnchecked:
    "Die GW2-API konnte den Schlüssel gerade nicht prüfen, es wurde nichts beendet. Versuche es in einer Minute erneut.",
  signoutLimited:
    "Von hier wurden gerade zu viele Schlüssel geprüft. Warte eine Minute und versuche es erneut.",
  signoutExpired: "Diese Seite ist abgelaufen. Lade sie neu, um dich abzumelden.",
  signoutUsed: "Dieses Formular wurde bereits gesendet. Lade die Seite neu, um dich abzumelden.",
  signoutForged:
    "Dieses Formular konnte nicht als das von Priory angezeigte bestätigt werden. Lade die Seite neu, um dich abzumelden.",
  signoutAgain: "Zur Abmeldeseite",
  aboutLink: "Über diesen Server",

  gw2meOr:
    "Keinen Schlüssel zur Hand? Melde dich stattdessen mit gw2.me an: Dort wählst du dein Konto, und Priory erhält kurzlebige Schlüssel dafür.",
  gw2meButton: "Mit gw2.me anmelden",
  gw2meNote:
    "gw2.me ist eine Community-Anmeldung für Guild-Wars-2-Apps, betrieben weder von Priory noch von ArenaNet.",
  gw2meDenied:
    "Die Anmeldung mit gw2.me wurde abgebrochen. Versuche es erneut oder füge stattdessen einen Schlüssel ein.",
  gw2meFailed:
    "gw2.me konnte die Anmeldung gerade nicht abschließen. Versuche es in einer Minute erneut oder füge stattdessen einen Schlüssel ein.",
  gw2meNoAccount:
    "gw2.me hat kein Guild-Wars-2-Konto geteilt, dessen Schlüssel die von Priory erbetenen Berechtigungen hat. Füge auf gw2.me eines hinzu und versuche es erneut, oder füge stattdessen einen Schlüssel ein.",
};

const FR: PageText = {
  runBy: "Géré par {name}",
  contact: "Contact et confidentialité",

  frontTitle: "Priory MCP : des outils Guild Wars 2 pour votre application d’IA",
  frontLead:
    "Priory MCP donne aux applications d’IA comme Claude, ChatGPT, VS Code et Cursor des outils sur l’API de Guild Wars 2 : objets, recettes et prix du comptoir avec leur historique, arbres de fabrication chiffrés jusqu’au dernier matériau, légendaires, reventes et fabrications rentables \u2014 et, une fois connecté, votre propre compte : où se trouve chaque objet, vos ordres et gains au comptoir, les quotidiennes et hebdomadaires restantes, la chambre forte du sorcier, vos collections et ce que vos possessions changent pour un légendaire.",
  addTitle: "L’ajouter à votre application",
  addressLabel: "L’adresse à ajouter :",
  hosts: {
    claude:
      "Paramètres \u2192 Connecteurs \u2192 Ajouter un connecteur personnalisé : un nom au choix et l’adresse ci-dessus ; laissez les champs OAuth vides. Puis Connecter, et connectez-vous sur la page qui s’ouvre.",
    chatgpt:
      "Paramètres \u2192 Applications et connecteurs \u2192 Paramètres avancés : activez le mode développeur. Puis Créer : l’adresse ci-dessus comme URL du serveur MCP, authentification OAuth. Choisissez-le dans une conversation pour vous connecter.",
    vscode:
      "Palette de commandes \u2192 MCP: Add Server\u2026 \u2192 HTTP, puis l’adresse ci-dessus ; ou ajoutez-le à .vscode/mcp.json :",
    cursor:
      "Ajoutez-le à ~/.cursor/mcp.json (Paramètres \u2192 MCP \u2192 Add new MCP server ouvre le fichier), puis cliquez sur \u00ab Needs login \u00bb à côté :",
    claudeCode: "Dans un terminal :",
  },
  signInTitle: "Se connecter",
  signIn:
    "La première fois que votre application se connecte, elle ouvre une page de Priory dans votre navigateur. Collez-y une clé d’API GW2 \u2014 créez-la sur {link} avec les autorisations ci-dessous \u2014 et choisissez Autoriser. L’application ne voit jamais la clé.",
  signInGw2me:
    "Ou choisissez \u00ab Se connecter avec gw2.me \u00bb sur cette page et choisissez votre compte là-bas : rien à copier.",
  storedTitle: "Ce que ce serveur conserve",
  stored:
    "Votre clé, chiffrée avec le secret du serveur et liée à cette seule connexion, et rien d’autre sur vous : ni adresse e-mail, ni mot de passe, ni conversation. Votre compte n’est connu que sous un pseudonyme, afin que toutes ses connexions partagent une même part équitable de requêtes ; les réponses lues sur votre compte sont gardées au plus 5 minutes pour économiser des requêtes.",
  storedGw2me:
    "Avec une connexion gw2.me, il conserve à la place d’une clé le jeton de connexion de gw2.me, chiffré de la même façon, et lit votre compte avec des clés de courte durée que gw2.me en tire.",
  storedEnds:
    "Une clé conservée est supprimée quand la connexion de l’application est révoquée, après 90 jours sans utilisation, ou quand vous vous déconnectez ci-dessous.",
  signOutTitle: "Se déconnecter",
  signOutLead:
    "Pour mettre fin d’un coup à toutes les connexions de votre compte sur ce serveur, dans toutes les applications, et supprimer les clés conservées : {link}.",
  signOutLink: "se déconnecter partout",

  signoutTitle: "Se déconnecter de Priory MCP",
  signoutLead:
    "Mettez fin à toutes les connexions de votre compte Guild Wars 2 sur ce serveur, dans toutes les applications, et supprimez les clés conservées pour elles.",
  signoutKeyLabel: "Une clé d’API GW2 de votre compte",
  signoutKeyHelp:
    "N’importe quelle clé du compte convient, même une nouvelle : Priory demande à l’API GW2 à quel compte elle appartient, puis l’oublie. Les clés sont sur {link}.",
  signoutButton: "Se déconnecter partout",
  signoutGw2me:
    "Connecté avec gw2.me ? Une clé du même compte fonctionne aussi ici ; ou retirez Priory de vos applications autorisées sur gw2.me.",
  signoutDoneOne:
    "Déconnecté : 1 connexion de {account} a pris fin et sa clé conservée a été supprimée. L’application vous demandera de vous reconnecter.",
  signoutDoneMany:
    "Déconnecté : {count} connexions de {account} ont pris fin et leurs clés conservées ont été supprimées. Les applications vous demanderont de vous reconnecter.",
  signoutDoneNone:
    "Rien à terminer : aucune connexion de {account} n’est active sur ce serveur, et rien n’en est conservé.",
  signoutKeyMissing: "Saisissez une clé d’API GW2 du compte à déconnecter.",
  signoutUnchecked:
    "L’API GW2 n’a pas pu vérifier la clé pour le moment ; rien n’a pris fin. Réessayez dans une minute.",
  signoutLimited:
    "Trop de clés ont été vérifiées depuis ici à l’instant. Attendez une minute et réessayez.",
  signoutExpired: "Cette page a expiré. Rechargez-la pour vous déconnecter.",
  signoutUsed: "Ce formulaire a déjà été envoyé. Rechargez la page pour vous déconnecter.",
  signoutForged:
    "Ce formulaire n’a pas pu être vérifié comme celui que Priory vous a montré. Rechargez la page pour vous déconnecter.",
  signoutAgain: "Page de déconnexion",
  aboutLink: "À propos de ce serveur",

  gw2meOr:
    "Pas de clé sous la main ? Connectez-vous plutôt avec gw2.me : vous y choisissez votre compte, et Priory reçoit des clés de courte durée pour lui.",
  gw2meButton: "Se connecter avec gw2.me",
  gw2meNote:
    "gw2.me est un service de connexion communautaire pour les applications Guild Wars 2, géré ni par Priory ni par ArenaNet.",
  gw2meDenied: "La connexion avec gw2.me a été annulée. Réessayez, ou collez plutôt une clé.",
  gw2meFailed:
    "gw2.me n’a pas pu terminer la connexion pour le moment. Réessayez dans une minute, ou collez plutôt une clé.",
  gw2meNoAccount:
    "gw2.me n’a partagé aucun compte Guild Wars 2 dont la clé a les autorisations que Priory demande. Ajoutez-en un sur gw2.me et réessayez, ou collez plutôt une clé.",
};

const ES: PageText = {
  runBy: "Gestionado por {name}",
  contact: "Contacto y privacidad",

  frontTitle: "Priory MCP: herramientas de Guild Wars 2 para tu aplicación de IA",
  frontLead:
    "Priory MCP da a aplicaciones de IA como Claude, ChatGPT, VS Code y Cursor herramientas sobre la API de Guild Wars 2: objetos, recetas y precios del bazar con su historial, árboles de fabricación con precio hasta el último material, legendarios, reventas y fabricaciones rentables; y, una vez iniciada la sesión, tu propia cuenta: dónde está cada objeto, tus órdenes y ganancias en el bazar, las diarias y semanales pendientes, la cámara del mago, tus colecciones y lo que tus posesiones suponen para un legendario.",
  addTitle: "Añádelo a tu aplicación",
  addressLabel: "La dirección que hay que añadir:",
  hosts: {
    claude:
      "Ajustes \u2192 Conectores \u2192 Añadir conector personalizado: cualquier nombre y la dirección de arriba; deja vacíos los campos de OAuth. Luego Conectar, e inicia sesión en la página que se abre.",
    chatgpt:
      "Ajustes \u2192 Aplicaciones y conectores \u2192 Ajustes avanzados: activa el modo de desarrollador. Luego Crear: la dirección de arriba como URL del servidor MCP, autenticación OAuth. Elígelo en un chat para iniciar sesión.",
    vscode:
      "Paleta de comandos \u2192 MCP: Add Server\u2026 \u2192 HTTP, y luego la dirección de arriba; o añádelo a .vscode/mcp.json:",
    cursor:
      "Añádelo a ~/.cursor/mcp.json (Ajustes \u2192 MCP \u2192 Add new MCP server abre el archivo) y luego pulsa \u00abNeeds login\u00bb a su lado:",
    claudeCode: "En un terminal:",
  },
  signInTitle: "Iniciar sesión",
  signIn:
    "La primera vez que tu aplicación se conecta, abre una página de Priory en tu navegador. Pega ahí una clave de la API de GW2 (créala en {link} con los permisos de abajo) y elige Permitir. La aplicación nunca ve la clave.",
  signInGw2me:
    "O elige \u00abIniciar sesión con gw2.me\u00bb en esa página y escoge tu cuenta allí: nada que copiar.",
  storedTitle: "Qué guarda este servidor",
  stored:
    "Tu clave, cifrada con el secreto del servidor y ligada a ese único inicio de sesión, y nada más sobre ti: ni dirección de correo, ni contraseña, ni conversación. Tu cuenta solo se conoce por un seudónimo, para que todos sus inicios de sesión compartan una misma parte justa de solicitudes; las respuestas leídas de tu cuenta se guardan como mucho 5 minutos para ahorrar solicitudes.",
  storedGw2me:
    "Si inicias sesión con gw2.me, guarda en lugar de una clave el token de inicio de sesión de gw2.me, cifrado igual, y lee tu cuenta con claves de corta duración que gw2.me crea a partir de él.",
  storedEnds:
    "Una clave guardada se borra cuando se revoca el inicio de sesión de la aplicación, tras 90 días sin uso o cuando cierras la sesión abajo.",
  signOutTitle: "Cerrar sesión",
  signOutLead:
    "Para terminar de una vez todos los inicios de sesión de tu cuenta en este servidor, en todas las aplicaciones, y borrar las claves guardadas: {link}.",
  signOutLink: "cerrar sesión en todas partes",

  signoutTitle: "Cerrar sesión en Priory MCP",
  signoutLead:
    "Termina todos los inicios de sesión de tu cuenta de Guild Wars 2 en este servidor, en todas las aplicaciones, y borra las claves guardadas para ellos.",
  signoutKeyLabel: "Una clave de la API de GW2 de tu cuenta",
  signoutKeyHelp:
    "Sirve cualquier clave de la cuenta, incluso una nueva: Priory pregunta a la API de GW2 de quién es la cuenta y luego la olvida. Las claves están en {link}.",
  signoutButton: "Cerrar sesión en todas partes",
  signoutGw2me:
    "¿Iniciaste sesión con gw2.me? Una clave de la misma cuenta también sirve aquí; o quita Priory de tus aplicaciones autorizadas en gw2.me.",
  signoutDoneOne:
    "Sesión cerrada: terminó 1 inicio de sesión de {account} y se borró su clave guardada. La aplicación te pedirá que vuelvas a iniciar sesión.",
  signoutDoneMany:
    "Sesión cerrada: terminaron {count} inicios de sesión de {account} y se borraron sus claves guardadas. Las aplicaciones te pedirán que vuelvas a iniciar sesión.",
  signoutDoneNone:
    "Nada que terminar: no hay ningún inicio de sesión de {account} activo en este servidor, y no se guarda nada de ella.",
  signoutKeyMissing:
    "Introduce una clave de la API de GW2 de la cuenta cuya sesión quieres cerrar.",
  signoutUnchecked:
    "La API de GW2 no pudo comprobar la clave ahora mismo; no se terminó nada. Inténtalo de nuevo en un minuto.",
  signoutLimited:
    "Se han comprobado demasiadas claves desde aquí hace un momento. Espera un minuto e inténtalo de nuevo.",
  signoutExpired: "Esta página ha caducado. Vuelve a cargarla para cerrar la sesión.",
  signoutUsed: "Este formulario ya se envió. Vuelve a cargar la página para cerrar la sesión.",
  signoutForged:
    "No se pudo verificar que este formulario sea el que Priory te mostró. Vuelve a cargar la página para cerrar la sesión.",
  signoutAgain: "Página de cierre de sesión",
  aboutLink: "Acerca de este servidor",

  gw2meOr:
    "¿No tienes una clave a mano? Inicia sesión con gw2.me: allí eliges tu cuenta, y Priory recibe claves de corta duración para ella.",
  gw2meButton: "Iniciar sesión con gw2.me",
  gw2meNote:
    "gw2.me es un inicio de sesión comunitario para aplicaciones de Guild Wars 2, que no gestionan ni Priory ni ArenaNet.",
  gw2meDenied: "Se canceló el inicio de sesión con gw2.me. Inténtalo de nuevo o pega una clave.",
  gw2meFailed:
    "gw2.me no pudo completar el inicio de sesión ahora mismo. Inténtalo de nuevo en un minuto o pega una clave.",
  gw2meNoAccount:
    "gw2.me no compartió ninguna cuenta de Guild Wars 2 cuya clave tenga los permisos que pide Priory. Añade una en gw2.me e inténtalo de nuevo, o pega una clave.",
};

const ZH: PageText = {
  runBy: "运营者：{name}",
  contact: "联系方式与隐私",

  frontTitle: "Priory MCP：为你的 AI 应用提供激战2工具",
  frontLead:
    "Priory MCP 为 Claude、ChatGPT、VS Code 和 Cursor 等 AI 应用提供基于激战2 API 的工具：物品、配方、交易所价格及其历史，精确到每种材料价格的制作树，传奇、倒卖和制作利润；登录后还能读取你自己的账号：每件物品在哪里、交易所的订单和收益、剩余的每日和每周任务、巫师宝库、你的收藏，以及你的库存对制作传奇意味着什么。",
  addTitle: "添加到你的应用",
  addressLabel: "要添加的地址：",
  hosts: {
    claude:
      "设置 \u2192 连接器 \u2192 添加自定义连接器：任意名称加上面的地址；OAuth 字段留空。然后点击连接，并在打开的页面中登录。",
    chatgpt:
      "设置 \u2192 应用与连接器 \u2192 高级设置：打开开发者模式。然后点击创建：上面的地址作为 MCP 服务器 URL，身份验证选 OAuth。在聊天中选择它即可登录。",
    vscode:
      "命令面板 \u2192 MCP: Add Server\u2026 \u2192 HTTP，然后填入上面的地址；或者写入 .vscode/mcp.json：",
    cursor:
      "写入 ~/.cursor/mcp.json（设置 \u2192 MCP \u2192 Add new MCP server 会打开该文件），然后点击旁边的\u201cNeeds login\u201d：",
    claudeCode: "在终端中：",
  },
  signInTitle: "登录",
  signIn:
    "你的应用第一次连接时，会在浏览器中打开 Priory 的页面。在那里粘贴一个激战2 API 密钥（在 {link} 创建，并勾选下面的权限），然后选择允许。应用永远看不到这个密钥。",
  signInGw2me:
    "也可以在该页面选择\u201c使用 gw2.me 登录\u201d，然后在 gw2.me 上选择你的账号：无需复制任何内容。",
  storedTitle: "此服务器保存什么",
  stored:
    "你的密钥：用服务器的机密加密，并只绑定到这一次登录；除此之外不保存任何关于你的信息：没有电子邮件地址、没有密码、没有对话内容。服务器只以一个化名识别你的账号，以便该账号的所有登录共享同一份公平的请求额度；从你的账号读取的结果最多缓存 5 分钟，以节省请求。",
  storedGw2me:
    "如果使用 gw2.me 登录，保存的不是密钥，而是 gw2.me 的登录令牌，以同样方式加密，并用 gw2.me 由此生成的短期密钥读取你的账号。",
  storedEnds: "当应用的登录被撤销、90 天未使用，或你在下方退出登录时，保存的密钥会被删除。",
  signOutTitle: "退出登录",
  signOutLead: "要一次性结束你的账号在此服务器上（所有应用中）的全部登录并删除保存的密钥：{link}。",
  signOutLink: "在所有地方退出登录",

  signoutTitle: "退出 Priory MCP",
  signoutLead: "结束你的激战2账号在此服务器上、所有应用中的每一次登录，并删除为它们保存的密钥。",
  signoutKeyLabel: "你账号的一个激战2 API 密钥",
  signoutKeyHelp:
    "该账号的任何密钥都可以，即使是新建的：Priory 会向激战2 API 询问它属于哪个账号，然后便忘掉它。密钥在 {link}。",
  signoutButton: "在所有地方退出登录",
  signoutGw2me:
    "通过 gw2.me 登录的？同一账号的密钥在这里同样有效；也可以在 gw2.me 的已授权应用中移除 Priory。",
  signoutDoneOne: "已退出：{account} 的 1 次登录已结束，其保存的密钥已删除。应用会请你重新登录。",
  signoutDoneMany:
    "已退出：{account} 的 {count} 次登录已结束，其保存的密钥已删除。应用会请你重新登录。",
  signoutDoneNone: "无需结束：{account} 在此服务器上没有有效的登录，也没有保存任何相关内容。",
  signoutKeyMissing: "请输入要退出登录的账号的激战2 API 密钥。",
  signoutUnchecked: "激战2 API 暂时无法验证此密钥，未结束任何登录。请一分钟后再试。",
  signoutLimited: "刚才从这里验证的密钥太多。请等一分钟再试。",
  signoutExpired: "此页面已过期。请重新加载后再退出登录。",
  signoutUsed: "此表单已经提交过。请重新加载页面后再退出登录。",
  signoutForged: "无法确认此表单是 Priory 向你显示的那一个。请重新加载页面后再退出登录。",
  signoutAgain: "退出登录页面",
  aboutLink: "关于此服务器",

  gw2meOr: "手头没有密钥？改用 gw2.me 登录：在那里选择你的账号，Priory 会收到该账号的短期密钥。",
  gw2meButton: "使用 gw2.me 登录",
  gw2meNote: "gw2.me 是面向激战2应用的社区登录服务，既不由 Priory 也不由 ArenaNet 运营。",
  gw2meDenied: "使用 gw2.me 的登录已取消。请重试，或改为粘贴密钥。",
  gw2meFailed: "gw2.me 暂时无法完成登录。请一分钟后重试，或改为粘贴密钥。",
  gw2meNoAccount:
    "gw2.me 没有共享任何其密钥具备 Priory 所需权限的激战2账号。请在 gw2.me 上添加一个后重试，或改为粘贴密钥。",
};

/** The texts per language. */
export const PAGE_TEXT: Readonly<Record<ConsentLanguage, PageText>> = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  zh: ZH,
};
