/**
 * The views' words in GW2's five languages, as a script defining the global `PrioryLabels`:
 * `use(code)` picks a language (`de`, `fr-FR`…; anything else keeps the current one and says
 * so), `t(key, …values)` a label with `{0}`-style values, `lang()`, and `number(value)` and the
 * coin letters for amounts. A view follows the `lang` of the tool call it draws, else the host's
 * locale when it is one of the five, else English.
 *
 * Plain ES2017 in a string, like every view script (see `client.ts`).
 *
 * @module
 */

/** The labels script (defines `PrioryLabels`; needs nothing). */
export const VIEW_LABELS_JS = String.raw`
var PrioryLabels = (function () {
  "use strict";
  var TEXT = {
    en: {
      coins: "g s c", working: "Working on it…", cannotDraw: "Cannot draw this result: {0}", cancelled: "The tool call was cancelled", cancelledBecause: "The tool call was cancelled: {0}",
      item: "Item {0}", currency: "Currency {0}", coin: "Coin",
      ownTitle: "Units taken from your holdings", own: "own {0}", runsTitle: "Recipe runs", runs: "{0} runs", asAboveTitle: "Crafted exactly as above", asAbove: "as above",
      buyInstead: "Buying it instead would cost", craftInstead: "Crafting it instead would cost", buyAlt: "buy ", craftAlt: "craft ",
      notPriced: "not priced", owned: "owned", noCoin: "no coin",
      craftCost: "Craft cost", withoutEarned: "without the items to earn", cheaperWay: "the cheaper way per ingredient",
      inclDepth: "incl. {0} for order-book depth", atDepth: "at order-book depth", buyingList: "Buying the list",
      readyMade: "Buy it ready-made", noSellListing: "no sell listing", lowestListing: "lowest sell listing",
      sellNow: "Sell it now", noBuyOrder: "no buy order", lessFee: "best buy order less the 15% fee",
      profit: "Profit", upperBound: "an upper bound", sellLessCost: "sell now less craft cost",
      holdingsSave: "Your holdings save", againstNothing: "against crafting from nothing",
      toEarn: " To earn, not in the cost: {0}", someItems: "some items", alsoPays: "Also pays: {0}", guildUpgrades: "Guild upgrades needed: {0}",
      stale: "Some figures are {0} s old: the GW2 API did not answer.",
      paidToVendors: "paid to vendors", notCoin: "not coin", bookShort: "the order book is {0} short: priced at its highest listing",
      noDepth: "order book not read: every unit at the lowest listing", soldPerWeek: "the market sells only ~{0} a week", cheaperToCraft: "cheaper to craft", neither: "neither bought nor crafted",
      nothingToBuy: "Nothing to buy: your holdings cover it.", shoppingList: "Shopping list",
      colItem: "Item", colCount: "Count", colUnit: "Unit", colTotal: "Total", colNote: "Note",
      totalAtDepth: "Total at order-book depth", forDepth: "incl. {0} for depth",
      expandTo: "Expand the tree to a level", levels: "Levels:", all: "all", recipeTree: "Recipe tree", notTree: "Not a recipe tree result: it has no tree or summary.",
      colLegendary: "Legendary", colCost: "Cost to finish", colSells: "Sells for", colSaved: "Holdings save",
      notRanking: "Not a ranking result: it has no ranking rows.", pricing: "Pricing the tree of {0}…", yourPlan: "{0}: your plan", close: "Close",
      noToolCalls: "This host does not let a view call tools: ask for priory_recipe_tree with itemId {0} and useAccount true.",
      hostFailed: "The host could not run priory_recipe_tree: {0}", openTree: "Open the recipe tree of {0}", upperBoundTitle: "Items to earn are not in the cost: an upper bound",
      alsoCur: "also {0}", priced: "{0} priced", withoutTree: "{0} without a tree", characters: "{0} characters' holdings counted",
      ranking: "Legendary profit ranking", noneRanked: "No legendary could be priced.", chooseRow: "Choose a legendary to see its tree with your holdings.",
      "badge.buy": "buy", "badge.craft": "craft", "badge.forge": "forge", "badge.vendor": "vendor", "badge.owned": "owned", "badge.unavailable": "unavailable", "badge.coin": "coin", "badge.currency": "currency", "badge.earn": "earn",
      "title.buy": "Bought on the Trading Post", "title.craft": "Crafted from its recipe", "title.forge": "Made in the Mystic Forge", "title.vendor": "Bought from a vendor",
      "title.owned": "Taken from your holdings", "title.unavailable": "Neither bought nor crafted: earn it", "title.coin": "Coin paid to a vendor", "title.currency": "A currency paid to a vendor", "title.earn": "Neither bought nor crafted: earn it",
      "craft.title": "Crafting profit", "craft.notCraft": "Not a crafting profit result: it has no rows.", "craft.colCraft": "Craft", "craft.colDiscipline": "Discipline",
      "craft.colCost": "Cost", "craft.colRoi": "ROI", "craft.colInARow": "In a row", "craft.colTotal": "Total profit", "craft.stop.bids": "the buy orders for it run out or fall",
      "craft.stop.asks": "an ingredient's listings run out or rise", "craft.stop.cap": "250 crafts walked", "craft.stop.daily": "a daily cooldown: once a day",
      "craft.stops": "Stops: {0}", "craft.makes": "makes {0}", "craft.dailyTitle": "A daily cooldown: once a day", "craft.daily": "daily", "craft.sheetTitle": "Learned from a recipe sheet",
      "craft.sheet": "sheet", "craft.noDepth": "order book not read", "craft.soldTitle": "Estimated from this server's price history", "craft.soldPerDay": "~{0} sold a day",
      "craft.sellDays": " ({0} days for the run)", "craft.otherCur": "also pays other currencies", "craft.oneCraft": "{0}: one craft", "craft.pricing": "Pricing one craft of {0}…",
      "craft.noToolCalls": "This host does not let a view call tools: ask for priory_recipe_tree with itemId {0} and quantity {1}.", "craft.scanned": "{0} recipes scanned",
      "craft.pricesAt": "prices of {0} UTC", "craft.stale": "Prices are {0} s old: the GW2 API did not answer.", "craft.none": "Nothing profits to craft right now.",
      "craft.hint": "Choose a craft to see its tree. In a row: crafts that stay profitable walking the order books.", "percent": "{0}%", "disc.Armorsmith": "Armorsmith",
      "disc.Artificer": "Artificer", "disc.Chef": "Chef", "disc.Huntsman": "Huntsman", "disc.Jeweler": "Jeweler", "disc.Leatherworker": "Leatherworker", "disc.Scribe": "Scribe",
      "disc.Tailor": "Tailor", "disc.Weaponsmith": "Weaponsmith", "history.title": "Trading Post history", "history.notHistory": "Not a price history result: it has no history rows.",
      "history.window": "window {0}", "history.latest": "latest snapshot {0}", "history.keySell": "lowest listing", "history.keyBuy": "best order", "history.keySold": "sold",
      "history.keyBought": "bought (units per point)", "history.missing": "Never on the Trading Post in a snapshot: {0}", "history.lowest": "Lowest listing", "history.over": "{0} over {1}",
      "history.bestOrder": "Best order", "history.range": "Range (listing)", "history.volatility": "volatility {0} %", "history.traded": "Traded a day", "history.soldBought": "{0} sold · {1} bought",
      "history.estimated": "estimated; cancellations count", "history.margin": "Flip margin", "history.noFlip": "no flip at these prices", "history.aDay": "{0} a day",
      "history.noPoints": "No points yet in this window.", "history.since": "recorded since {0}", "history.notYet": "not recorded yet", "history.chart": "{0}: lowest listing {1} over {2}, {3} points; bars are units traded per point",
      "history.fromTo": "{0} to {1}", "history.none": "none",
      // The Trading Post view (issue 27).
      "tp.title": "Trading Post", "tp.notTp": "Not a Trading Post result: it has no orders or earnings.", "tp.window": "earnings over {0}",
      "tp.sold": "Sold, after fees", "tp.soldNote": "{0} units · {1} before fees", "tp.bought": "Bought", "tp.units": "{0} units",
      "tp.profitNote": "sales after fees less purchases", "tp.delivery": "Delivery box", "tp.boxNote": "plus items worth {0}", "tp.selling": "Your listings",
      "tp.buying": "Your buy orders", "tp.colPrice": "Your price", "tp.colLowest": "Lowest listing", "tp.colHighest": "Best order",
      "tp.colAhead": "Units ahead", "tp.colValue": "Value now", "tp.colSold": "Sold", "tp.colBought": "Bought", "tp.colNet": "Net",
      "tp.undercut": "undercut", "tp.outbid": "outbid", "tp.best": "best price", "tp.undercutTitle": "A cheaper listing sells before yours",
      "tp.outbidTitle": "A higher order is filled before yours", "tp.lowestTitle": "Yours is the lowest listing",
      "tp.highestTitle": "Yours is the best order", "tp.atLeast": "at least {0}", "tp.more": "{0} more not shown: raise limit",
      "tp.noSelling": "No listings.", "tp.noBuying": "No buy orders.", "tp.noDelivery": "Nothing waiting.", "tp.noSales": "No sales in this window.",
      "tp.top": "Earned most"
    },
    de: {
      coins: "g s k", working: "Wird berechnet…", cannotDraw: "Dieses Ergebnis lässt sich nicht darstellen: {0}", cancelled: "Der Tool-Aufruf wurde abgebrochen", cancelledBecause: "Der Tool-Aufruf wurde abgebrochen: {0}",
      item: "Gegenstand {0}", currency: "Währung {0}", coin: "Münze",
      ownTitle: "Aus deinem Besitz genommen", own: "eigen {0}", runsTitle: "Rezeptdurchläufe", runs: "{0}× hergestellt", asAboveTitle: "Genau wie oben hergestellt", asAbove: "wie oben",
      buyInstead: "Stattdessen kaufen kostet", craftInstead: "Stattdessen herstellen kostet", buyAlt: "kaufen ", craftAlt: "herstellen ",
      notPriced: "ohne Preis", owned: "im Besitz", noCoin: "keine Münzen",
      craftCost: "Herstellungskosten", withoutEarned: "ohne die zu verdienenden Gegenstände", cheaperWay: "je Zutat der günstigere Weg",
      inclDepth: "inkl. {0} für die Markttiefe", atDepth: "nach Markttiefe", buyingList: "Die Liste kaufen",
      readyMade: "Fertig kaufen", noSellListing: "kein Verkaufsangebot", lowestListing: "niedrigstes Verkaufsangebot",
      sellNow: "Jetzt verkaufen", noBuyOrder: "kein Kaufauftrag", lessFee: "bester Kaufauftrag abzüglich 15 % Gebühr",
      profit: "Gewinn", upperBound: "eine Obergrenze", sellLessCost: "Verkauf abzüglich Herstellungskosten",
      holdingsSave: "Dein Besitz spart", againstNothing: "gegenüber der Herstellung aus dem Nichts",
      toEarn: " Zu verdienen, nicht in den Kosten: {0}", someItems: "einige Gegenstände", alsoPays: "Zahlt außerdem: {0}", guildUpgrades: "Benötigte Gilden-Aufwertungen: {0}",
      stale: "Einige Werte sind {0} s alt: die GW2-API hat nicht geantwortet.",
      paidToVendors: "an Händler gezahlt", notCoin: "keine Münzen", bookShort: "dem Orderbuch fehlen {0}: zum höchsten Angebot bewertet",
      noDepth: "Orderbuch nicht gelesen: jede Einheit zum niedrigsten Angebot", soldPerWeek: "der Markt verkauft nur ~{0} pro Woche", cheaperToCraft: "günstiger herzustellen", neither: "weder kaufbar noch herstellbar",
      nothingToBuy: "Nichts zu kaufen: dein Besitz deckt alles.", shoppingList: "Einkaufsliste",
      colItem: "Gegenstand", colCount: "Anzahl", colUnit: "Stück", colTotal: "Summe", colNote: "Hinweis",
      totalAtDepth: "Summe nach Markttiefe", forDepth: "inkl. {0} für die Tiefe",
      expandTo: "Den Baum bis zu einer Ebene aufklappen", levels: "Ebenen:", all: "alle", recipeTree: "Rezeptbaum", notTree: "Kein Rezeptbaum: das Ergebnis hat keinen Baum und keine Zusammenfassung.",
      colLegendary: "Legendär", colCost: "Restkosten", colSells: "Verkaufswert", colSaved: "Besitz spart",
      notRanking: "Keine Rangliste: das Ergebnis hat keine Zeilen.", pricing: "Der Baum von {0} wird bewertet…", yourPlan: "{0}: dein Plan", close: "Schließen",
      noToolCalls: "Dieser Host lässt eine Ansicht keine Tools aufrufen: frage nach priory_recipe_tree mit itemId {0} und useAccount true.",
      hostFailed: "Der Host konnte priory_recipe_tree nicht ausführen: {0}", openTree: "Den Rezeptbaum von {0} öffnen", upperBoundTitle: "Zu verdienende Gegenstände sind nicht in den Kosten: eine Obergrenze",
      alsoCur: "außerdem {0}", priced: "{0} bewertet", withoutTree: "{0} ohne Baum", characters: "Besitz von {0} Charakteren gezählt",
      ranking: "Legendäre Gewinn-Rangliste", noneRanked: "Keine Legendäre ließ sich bewerten.", chooseRow: "Wähle eine Legendäre, um ihren Baum mit deinem Besitz zu sehen.",
      "badge.buy": "kaufen", "badge.craft": "herstellen", "badge.forge": "Schmiede", "badge.vendor": "Händler", "badge.owned": "Besitz", "badge.unavailable": "nicht erhältlich", "badge.coin": "Münzen", "badge.currency": "Währung", "badge.earn": "verdienen",
      "title.buy": "Im Handelsposten gekauft", "title.craft": "Nach Rezept hergestellt", "title.forge": "In der Mystischen Schmiede hergestellt", "title.vendor": "Bei einem Händler gekauft",
      "title.owned": "Aus deinem Besitz", "title.unavailable": "Weder kaufbar noch herstellbar: verdiene es", "title.coin": "An einen Händler gezahlte Münzen", "title.currency": "An einen Händler gezahlte Währung", "title.earn": "Weder kaufbar noch herstellbar: verdiene es",
      "craft.title": "Handwerksgewinn", "craft.notCraft": "Kein Handwerksgewinn-Ergebnis: es hat keine Zeilen.", "craft.colCraft": "Herstellung", "craft.colDiscipline": "Disziplin",
      "craft.colCost": "Kosten", "craft.colRoi": "Rendite", "craft.colInARow": "Am Stück", "craft.colTotal": "Gesamtgewinn", "craft.stop.bids": "die Kaufaufträge dafür gehen aus oder sinken",
      "craft.stop.asks": "die Angebote einer Zutat gehen aus oder steigen", "craft.stop.cap": "250 Herstellungen durchgerechnet", "craft.stop.daily": "tägliche Abklingzeit: einmal am Tag",
      "craft.stops": "Endet: {0}", "craft.makes": "ergibt {0}", "craft.dailyTitle": "Tägliche Abklingzeit: einmal am Tag", "craft.daily": "täglich", "craft.sheetTitle": "Aus einem Rezept erlernt",
      "craft.sheet": "Rezept", "craft.noDepth": "Orderbuch nicht gelesen", "craft.soldTitle": "Geschätzt aus dem Preisverlauf dieses Servers", "craft.soldPerDay": "~{0} verkauft pro Tag",
      "craft.sellDays": " ({0} Tage für die Reihe)", "craft.otherCur": "zahlt auch andere Währungen", "craft.oneCraft": "{0}: eine Herstellung", "craft.pricing": "Eine Herstellung von {0} wird bewertet…",
      "craft.noToolCalls": "Dieser Host lässt eine Ansicht keine Tools aufrufen: frage nach priory_recipe_tree mit itemId {0} und quantity {1}.", "craft.scanned": "{0} Rezepte durchsucht",
      "craft.pricesAt": "Preise von {0} UTC", "craft.stale": "Die Preise sind {0} s alt: die GW2-API hat nicht geantwortet.", "craft.none": "Gerade lohnt sich keine Herstellung.",
      "craft.hint": "Wähle eine Herstellung, um ihren Baum zu sehen. Am Stück: Herstellungen, die entlang der Orderbücher profitabel bleiben.", "percent": "{0} %",
      "disc.Armorsmith": "Rüstungsschmied", "disc.Artificer": "Konstrukteur", "disc.Chef": "Koch", "disc.Huntsman": "Waidmann", "disc.Jeweler": "Juwelier", "disc.Leatherworker": "Lederer",
      "disc.Scribe": "Schreiber", "disc.Tailor": "Schneider", "disc.Weaponsmith": "Waffenschmied", "history.title": "Handelsposten-Verlauf", "history.notHistory": "Kein Preisverlauf: das Ergebnis hat keine Verlaufszeilen.",
      "history.window": "Zeitraum {0}", "history.latest": "letzter Schnappschuss {0}", "history.keySell": "niedrigstes Angebot", "history.keyBuy": "bester Kaufauftrag",
      "history.keySold": "verkauft", "history.keyBought": "gekauft (Einheiten pro Punkt)", "history.missing": "In keinem Schnappschuss im Handelsposten: {0}",
      "history.lowest": "Niedrigstes Angebot", "history.over": "{0} in {1}", "history.bestOrder": "Bester Kaufauftrag", "history.range": "Spanne (Angebot)", "history.volatility": "Volatilität {0} %",
      "history.traded": "Gehandelt pro Tag", "history.soldBought": "{0} verkauft · {1} gekauft", "history.estimated": "geschätzt; Stornierungen zählen mit", "history.margin": "Flip-Marge",
      "history.noFlip": "kein Flip zu diesen Preisen", "history.aDay": "{0} pro Tag", "history.noPoints": "Noch keine Punkte in diesem Zeitraum.", "history.since": "aufgezeichnet seit {0}",
      "history.notYet": "noch nicht aufgezeichnet", "history.chart": "{0}: niedrigstes Angebot {1} in {2}, {3} Punkte; Balken sind gehandelte Einheiten pro Punkt",
      "history.fromTo": "{0} bis {1}", "history.none": "keines",
      // The Trading Post view (issue 27).
      "tp.title": "Handelsposten", "tp.notTp": "Kein Handelsposten-Ergebnis: es hat keine Aufträge oder Einnahmen.", "tp.window": "Einnahmen über {0}",
      "tp.sold": "Verkauft, nach Gebühren", "tp.soldNote": "{0} Einheiten · {1} vor Gebühren", "tp.bought": "Gekauft", "tp.units": "{0} Einheiten",
      "tp.profitNote": "Verkäufe nach Gebühren abzüglich Käufe", "tp.delivery": "Zum Abholen", "tp.boxNote": "dazu Gegenstände im Wert von {0}",
      "tp.selling": "Deine Angebote", "tp.buying": "Deine Kaufaufträge", "tp.colPrice": "Dein Preis", "tp.colLowest": "Niedrigstes Angebot",
      "tp.colHighest": "Bester Kaufauftrag", "tp.colAhead": "Einheiten davor", "tp.colValue": "Wert jetzt", "tp.colSold": "Verkauft",
      "tp.colBought": "Gekauft", "tp.colNet": "Netto", "tp.undercut": "unterboten", "tp.outbid": "überboten", "tp.best": "bester Preis",
      "tp.undercutTitle": "Ein günstigeres Angebot wird vor deinem verkauft", "tp.outbidTitle": "Ein höherer Kaufauftrag wird vor deinem bedient",
      "tp.lowestTitle": "Dein Angebot ist das niedrigste", "tp.highestTitle": "Dein Kaufauftrag ist der höchste", "tp.atLeast": "mindestens {0}",
      "tp.more": "{0} weitere nicht gezeigt: limit erhöhen", "tp.noSelling": "Keine Angebote.", "tp.noBuying": "Keine Kaufaufträge.",
      "tp.noDelivery": "Nichts abzuholen.", "tp.noSales": "Keine Verkäufe in diesem Zeitraum.", "tp.top": "Größte Einnahmen"
    },
    fr: {
      coins: "po pa pc", working: "Calcul en cours…", cannotDraw: "Impossible d'afficher ce résultat : {0}", cancelled: "L'appel de l'outil a été annulé", cancelledBecause: "L'appel de l'outil a été annulé : {0}",
      item: "Objet {0}", currency: "Monnaie {0}", coin: "Pièce",
      ownTitle: "Unités prises dans vos possessions", own: "possédé {0}", runsTitle: "Exécutions de la recette", runs: "{0} fabrications", asAboveTitle: "Fabriqué exactement comme ci-dessus", asAbove: "comme ci-dessus",
      buyInstead: "L'acheter à la place coûterait", craftInstead: "Le fabriquer à la place coûterait", buyAlt: "achat ", craftAlt: "fabrication ",
      notPriced: "sans prix", owned: "possédé", noCoin: "pas de pièces",
      craftCost: "Coût de fabrication", withoutEarned: "sans les objets à gagner", cheaperWay: "la voie la moins chère par ingrédient",
      inclDepth: "dont {0} pour la profondeur du carnet", atDepth: "selon la profondeur du carnet", buyingList: "Acheter la liste",
      readyMade: "L'acheter tout fait", noSellListing: "aucune offre de vente", lowestListing: "offre de vente la plus basse",
      sellNow: "Le vendre maintenant", noBuyOrder: "aucun ordre d'achat", lessFee: "meilleur ordre d'achat moins 15 % de taxe",
      profit: "Bénéfice", upperBound: "une borne supérieure", sellLessCost: "vente moins le coût de fabrication",
      holdingsSave: "Vos possessions économisent", againstNothing: "par rapport à une fabrication à partir de rien",
      toEarn: " À gagner, hors coût : {0}", someItems: "quelques objets", alsoPays: "Paie aussi : {0}", guildUpgrades: "Améliorations de guilde requises : {0}",
      stale: "Certains chiffres datent de {0} s : l'API de GW2 n'a pas répondu.",
      paidToVendors: "payé aux marchands", notCoin: "pas des pièces", bookShort: "il manque {0} au carnet : au prix de l'offre la plus haute",
      noDepth: "carnet non lu : chaque unité à l'offre la plus basse", soldPerWeek: "le marché n'en vend que ~{0} par semaine", cheaperToCraft: "moins cher à fabriquer", neither: "ni achetable ni fabricable",
      nothingToBuy: "Rien à acheter : vos possessions suffisent.", shoppingList: "Liste d'achats",
      colItem: "Objet", colCount: "Nombre", colUnit: "Unité", colTotal: "Total", colNote: "Remarque",
      totalAtDepth: "Total selon la profondeur du carnet", forDepth: "dont {0} pour la profondeur",
      expandTo: "Déplier l'arbre jusqu'à un niveau", levels: "Niveaux :", all: "tout", recipeTree: "Arbre de fabrication", notTree: "Pas un arbre de fabrication : le résultat n'a ni arbre ni résumé.",
      colLegendary: "Légendaire", colCost: "Reste à payer", colSells: "Se vend", colSaved: "Économie",
      notRanking: "Pas un classement : le résultat n'a pas de lignes.", pricing: "Évaluation de l'arbre de {0}…", yourPlan: "{0} : votre plan", close: "Fermer",
      noToolCalls: "Cet hôte ne permet pas à une vue d'appeler des outils : demandez priory_recipe_tree avec itemId {0} et useAccount true.",
      hostFailed: "L'hôte n'a pas pu exécuter priory_recipe_tree : {0}", openTree: "Ouvrir l'arbre de fabrication de {0}", upperBoundTitle: "Les objets à gagner ne sont pas dans le coût : une borne supérieure",
      alsoCur: "aussi {0}", priced: "{0} évalués", withoutTree: "{0} sans arbre", characters: "possessions de {0} personnages comptées",
      ranking: "Classement des légendaires par bénéfice", noneRanked: "Aucune légendaire n'a pu être évaluée.", chooseRow: "Choisissez une légendaire pour voir son arbre avec vos possessions.",
      "badge.buy": "achat", "badge.craft": "fabrication", "badge.forge": "forge", "badge.vendor": "marchand", "badge.owned": "possédé", "badge.unavailable": "indisponible", "badge.coin": "pièces", "badge.currency": "monnaie", "badge.earn": "à gagner",
      "title.buy": "Acheté au comptoir", "title.craft": "Fabriqué selon sa recette", "title.forge": "Fait dans la Forge mystique", "title.vendor": "Acheté à un marchand",
      "title.owned": "Pris dans vos possessions", "title.unavailable": "Ni achetable ni fabricable : à gagner", "title.coin": "Pièces payées à un marchand", "title.currency": "Monnaie payée à un marchand", "title.earn": "Ni achetable ni fabricable : à gagner",
      "craft.title": "Profit d'artisanat", "craft.notCraft": "Pas un résultat de profit d'artisanat : il n'a pas de lignes.", "craft.colCraft": "Fabrication",
      "craft.colDiscipline": "Discipline", "craft.colCost": "Coût", "craft.colRoi": "Rendement", "craft.colInARow": "À la suite", "craft.colTotal": "Bénéfice total",
      "craft.stop.bids": "les ordres d'achat s'épuisent ou baissent", "craft.stop.asks": "les offres d'un ingrédient s'épuisent ou montent", "craft.stop.cap": "250 fabrications parcourues",
      "craft.stop.daily": "un temps de recharge quotidien : une fois par jour", "craft.stops": "S'arrête : {0}", "craft.makes": "en produit {0}", "craft.dailyTitle": "Temps de recharge quotidien : une fois par jour",
      "craft.daily": "quotidien", "craft.sheetTitle": "Appris d'une recette à apprendre", "craft.sheet": "recette", "craft.noDepth": "carnet non lu", "craft.soldTitle": "Estimé d'après l'historique des prix de ce serveur",
      "craft.soldPerDay": "~{0} vendus par jour", "craft.sellDays": " ({0} jours pour la série)", "craft.otherCur": "paie aussi d'autres monnaies", "craft.oneCraft": "{0} : une fabrication",
      "craft.pricing": "Évaluation d'une fabrication de {0}…", "craft.noToolCalls": "Cet hôte ne permet pas à une vue d'appeler des outils : demandez priory_recipe_tree avec itemId {0} et quantity {1}.",
      "craft.scanned": "{0} recettes parcourues", "craft.pricesAt": "prix de {0} UTC", "craft.stale": "Les prix datent de {0} s : l'API de GW2 n'a pas répondu.",
      "craft.none": "Rien n'est rentable à fabriquer en ce moment.", "craft.hint": "Choisissez une fabrication pour voir son arbre. À la suite : les fabrications qui restent rentables en remontant les carnets d'ordres.",
      "percent": "{0} %", "disc.Armorsmith": "Forgeron d'armures", "disc.Artificer": "Artificier", "disc.Chef": "Maître-queux", "disc.Huntsman": "Chasseur", "disc.Jeweler": "Bijoutier",
      "disc.Leatherworker": "Travailleur du cuir", "disc.Scribe": "Scribe", "disc.Tailor": "Tailleur", "disc.Weaponsmith": "Forgeron d'armes", "history.title": "Historique du comptoir",
      "history.notHistory": "Pas un historique de prix : le résultat n'a pas de lignes d'historique.", "history.window": "période {0}", "history.latest": "dernier relevé {0}",
      "history.keySell": "offre de vente la plus basse", "history.keyBuy": "meilleur ordre d'achat", "history.keySold": "vendus", "history.keyBought": "achetés (unités par point)",
      "history.missing": "Jamais au comptoir dans un relevé : {0}", "history.lowest": "Offre la plus basse", "history.over": "{0} sur {1}", "history.bestOrder": "Meilleur ordre d'achat",
      "history.range": "Fourchette (offre)", "history.volatility": "volatilité {0} %", "history.traded": "Échangés par jour", "history.soldBought": "{0} vendus · {1} achetés",
      "history.estimated": "estimation ; annulations comprises", "history.margin": "Marge de revente", "history.noFlip": "pas de revente rentable à ces prix",
      "history.aDay": "{0} par jour", "history.noPoints": "Aucun point pour l'instant sur cette période.", "history.since": "enregistré depuis {0}", "history.notYet": "pas encore enregistré",
      "history.chart": "{0} : offre la plus basse de {1} sur {2}, {3} points ; les barres sont les unités échangées par point", "history.fromTo": "{0} à {1}",
      "history.none": "aucune",
      // The Trading Post view (issue 27).
      "tp.title": "Comptoir", "tp.notTp": "Pas un résultat du comptoir : il n'a ni ordres ni gains.", "tp.window": "gains sur {0}",
      "tp.sold": "Vendu, après taxes", "tp.soldNote": "{0} unités · {1} avant taxes", "tp.bought": "Acheté", "tp.units": "{0} unités",
      "tp.profitNote": "ventes après taxes moins achats", "tp.delivery": "À récupérer", "tp.boxNote": "plus des objets d'une valeur de {0}",
      "tp.selling": "Vos offres de vente", "tp.buying": "Vos ordres d'achat", "tp.colPrice": "Votre prix", "tp.colLowest": "Offre la plus basse",
      "tp.colHighest": "Meilleur ordre", "tp.colAhead": "Unités devant", "tp.colValue": "Valeur actuelle", "tp.colSold": "Vendus", "tp.colBought": "Achetés",
      "tp.colNet": "Net", "tp.undercut": "sous-coté", "tp.outbid": "surenchéri", "tp.best": "meilleur prix",
      "tp.undercutTitle": "Une offre moins chère se vend avant la vôtre", "tp.outbidTitle": "Un ordre plus élevé est servi avant le vôtre",
      "tp.lowestTitle": "Votre offre est la plus basse", "tp.highestTitle": "Votre ordre est le plus élevé", "tp.atLeast": "au moins {0}",
      "tp.more": "{0} de plus non affichés : augmentez limit", "tp.noSelling": "Aucune offre de vente.", "tp.noBuying": "Aucun ordre d'achat.",
      "tp.noDelivery": "Rien à récupérer.", "tp.noSales": "Aucune vente sur cette période.", "tp.top": "Meilleurs gains"
    },
    es: {
      coins: "o p c", working: "Calculando…", cannotDraw: "No se puede mostrar este resultado: {0}", cancelled: "La llamada a la herramienta se canceló", cancelledBecause: "La llamada a la herramienta se canceló: {0}",
      item: "Objeto {0}", currency: "Divisa {0}", coin: "Moneda",
      ownTitle: "Unidades tomadas de tus posesiones", own: "propio {0}", runsTitle: "Ejecuciones de la receta", runs: "{0} fabricaciones", asAboveTitle: "Fabricado exactamente como arriba", asAbove: "como arriba",
      buyInstead: "Comprarlo costaría", craftInstead: "Fabricarlo costaría", buyAlt: "comprar ", craftAlt: "fabricar ",
      notPriced: "sin precio", owned: "en posesión", noCoin: "sin monedas",
      craftCost: "Coste de fabricación", withoutEarned: "sin los objetos que hay que ganar", cheaperWay: "la vía más barata por ingrediente",
      inclDepth: "incl. {0} por la profundidad del libro", atDepth: "según la profundidad del libro", buyingList: "Comprar la lista",
      readyMade: "Comprarlo hecho", noSellListing: "sin ofertas de venta", lowestListing: "oferta de venta más baja",
      sellNow: "Venderlo ahora", noBuyOrder: "sin órdenes de compra", lessFee: "mejor orden de compra menos la comisión del 15 %",
      profit: "Beneficio", upperBound: "un máximo", sellLessCost: "venta menos coste de fabricación",
      holdingsSave: "Tus posesiones ahorran", againstNothing: "frente a fabricarlo desde cero",
      toEarn: " Por ganar, fuera del coste: {0}", someItems: "algunos objetos", alsoPays: "También paga: {0}", guildUpgrades: "Mejoras de clan necesarias: {0}",
      stale: "Algunas cifras tienen {0} s: la API de GW2 no respondió.",
      paidToVendors: "pagado a mercaderes", notCoin: "no es moneda", bookShort: "al libro le faltan {0}: al precio de la oferta más alta",
      noDepth: "libro no leído: cada unidad a la oferta más baja", soldPerWeek: "el mercado solo vende ~{0} a la semana", cheaperToCraft: "más barato de fabricar", neither: "ni se compra ni se fabrica",
      nothingToBuy: "Nada que comprar: tus posesiones lo cubren.", shoppingList: "Lista de la compra",
      colItem: "Objeto", colCount: "Cantidad", colUnit: "Unidad", colTotal: "Total", colNote: "Nota",
      totalAtDepth: "Total según la profundidad del libro", forDepth: "incl. {0} por profundidad",
      expandTo: "Desplegar el árbol hasta un nivel", levels: "Niveles:", all: "todo", recipeTree: "Árbol de recetas", notTree: "No es un árbol de recetas: el resultado no tiene árbol ni resumen.",
      colLegendary: "Legendario", colCost: "Coste restante", colSells: "Se vende por", colSaved: "Ahorro",
      notRanking: "No es una clasificación: el resultado no tiene filas.", pricing: "Valorando el árbol de {0}…", yourPlan: "{0}: tu plan", close: "Cerrar",
      noToolCalls: "Este anfitrión no permite que una vista llame a herramientas: pide priory_recipe_tree con itemId {0} y useAccount true.",
      hostFailed: "El anfitrión no pudo ejecutar priory_recipe_tree: {0}", openTree: "Abrir el árbol de recetas de {0}", upperBoundTitle: "Los objetos por ganar no están en el coste: un máximo",
      alsoCur: "también {0}", priced: "{0} valorados", withoutTree: "{0} sin árbol", characters: "posesiones de {0} personajes contadas",
      ranking: "Clasificación de legendarios por beneficio", noneRanked: "No se pudo valorar ningún legendario.", chooseRow: "Elige un legendario para ver su árbol con tus posesiones.",
      "badge.buy": "comprar", "badge.craft": "fabricar", "badge.forge": "forja", "badge.vendor": "mercader", "badge.owned": "posesión", "badge.unavailable": "no disponible", "badge.coin": "monedas", "badge.currency": "divisa", "badge.earn": "ganar",
      "title.buy": "Comprado en el bazar", "title.craft": "Fabricado con su receta", "title.forge": "Hecho en la Forja Mística", "title.vendor": "Comprado a un mercader",
      "title.owned": "Tomado de tus posesiones", "title.unavailable": "Ni se compra ni se fabrica: hay que ganarlo", "title.coin": "Monedas pagadas a un mercader", "title.currency": "Divisa pagada a un mercader", "title.earn": "Ni se compra ni se fabrica: hay que ganarlo",
      "craft.title": "Beneficio de artesanía", "craft.notCraft": "No es un resultado de beneficio de artesanía: no tiene filas.", "craft.colCraft": "Fabricación",
      "craft.colDiscipline": "Disciplina", "craft.colCost": "Coste", "craft.colRoi": "Rentabilidad", "craft.colInARow": "Seguidas", "craft.colTotal": "Beneficio total",
      "craft.stop.bids": "las órdenes de compra se agotan o bajan", "craft.stop.asks": "las ofertas de un ingrediente se agotan o suben", "craft.stop.cap": "250 fabricaciones recorridas",
      "craft.stop.daily": "un tiempo de reutilización diario: una vez al día", "craft.stops": "Se detiene: {0}", "craft.makes": "produce {0}", "craft.dailyTitle": "Tiempo de reutilización diario: una vez al día",
      "craft.daily": "diario", "craft.sheetTitle": "Aprendida de una receta", "craft.sheet": "receta", "craft.noDepth": "libro no leído", "craft.soldTitle": "Estimado a partir del historial de precios de este servidor",
      "craft.soldPerDay": "~{0} vendidos al día", "craft.sellDays": " ({0} días para la serie)", "craft.otherCur": "también paga otras divisas", "craft.oneCraft": "{0}: una fabricación",
      "craft.pricing": "Valorando una fabricación de {0}…", "craft.noToolCalls": "Este anfitrión no permite que una vista llame a herramientas: pide priory_recipe_tree con itemId {0} y quantity {1}.",
      "craft.scanned": "{0} recetas analizadas", "craft.pricesAt": "precios de las {0} UTC", "craft.stale": "Los precios tienen {0} s: la API de GW2 no respondió.",
      "craft.none": "Ahora mismo no sale rentable fabricar nada.", "craft.hint": "Elige una fabricación para ver su árbol. Seguidas: fabricaciones que siguen siendo rentables recorriendo los libros de órdenes.",
      "percent": "{0} %", "disc.Armorsmith": "Forjador de armaduras", "disc.Artificer": "Artífice", "disc.Chef": "Cocinero", "disc.Huntsman": "Cazador", "disc.Jeweler": "Joyero",
      "disc.Leatherworker": "Peletero", "disc.Scribe": "Escriba", "disc.Tailor": "Sastre", "disc.Weaponsmith": "Armero", "history.title": "Historial del bazar",
      "history.notHistory": "No es un historial de precios: el resultado no tiene filas de historial.", "history.window": "periodo {0}", "history.latest": "última instantánea {0}",
      "history.keySell": "oferta de venta más baja", "history.keyBuy": "mejor orden de compra", "history.keySold": "vendidos", "history.keyBought": "comprados (unidades por punto)",
      "history.missing": "Nunca en el bazar en una instantánea: {0}", "history.lowest": "Oferta más baja", "history.over": "{0} en {1}", "history.bestOrder": "Mejor orden de compra",
      "history.range": "Rango (oferta)", "history.volatility": "volatilidad {0} %", "history.traded": "Intercambiados al día", "history.soldBought": "{0} vendidos · {1} comprados",
      "history.estimated": "estimado; cuenta las cancelaciones", "history.margin": "Margen de reventa", "history.noFlip": "sin reventa rentable a estos precios",
      "history.aDay": "{0} al día", "history.noPoints": "Aún no hay puntos en este periodo.", "history.since": "registrado desde {0}", "history.notYet": "aún no registrado",
      "history.chart": "{0}: oferta más baja de {1} en {2}, {3} puntos; las barras son unidades intercambiadas por punto", "history.fromTo": "{0} a {1}", "history.none": "ninguna",
      // The Trading Post view (issue 27).
      "tp.title": "Bazar", "tp.notTp": "No es un resultado del bazar: no tiene órdenes ni ganancias.", "tp.window": "ganancias en {0}",
      "tp.sold": "Vendido, tras comisiones", "tp.soldNote": "{0} unidades · {1} antes de comisiones", "tp.bought": "Comprado", "tp.units": "{0} unidades",
      "tp.profitNote": "ventas tras comisiones menos compras", "tp.delivery": "Por recoger", "tp.boxNote": "más objetos por valor de {0}",
      "tp.selling": "Tus ofertas de venta", "tp.buying": "Tus órdenes de compra", "tp.colPrice": "Tu precio", "tp.colLowest": "Oferta más baja",
      "tp.colHighest": "Mejor orden", "tp.colAhead": "Unidades delante", "tp.colValue": "Valor actual", "tp.colSold": "Vendidos",
      "tp.colBought": "Comprados", "tp.colNet": "Neto", "tp.undercut": "rebajado", "tp.outbid": "superado", "tp.best": "mejor precio",
      "tp.undercutTitle": "Una oferta más barata se vende antes que la tuya", "tp.outbidTitle": "Una orden más alta se atiende antes que la tuya",
      "tp.lowestTitle": "Tu oferta es la más baja", "tp.highestTitle": "Tu orden es la más alta", "tp.atLeast": "al menos {0}",
      "tp.more": "{0} más sin mostrar: sube limit", "tp.noSelling": "Sin ofertas de venta.", "tp.noBuying": "Sin órdenes de compra.",
      "tp.noDelivery": "Nada por recoger.", "tp.noSales": "Sin ventas en este período.", "tp.top": "Mayores ganancias"
    },
    zh: {
      coins: "金 银 铜", working: "计算中…", cannotDraw: "无法显示此结果：{0}", cancelled: "工具调用已取消", cancelledBecause: "工具调用已取消：{0}",
      item: "物品 {0}", currency: "货币 {0}", coin: "金币",
      ownTitle: "取自你的持有物", own: "持有 {0}", runsTitle: "配方次数", runs: "{0} 次", asAboveTitle: "与上面完全相同的制作", asAbove: "同上",
      buyInstead: "改为购买需要", craftInstead: "改为制作需要", buyAlt: "购买 ", craftAlt: "制作 ",
      notPriced: "无价格", owned: "已持有", noCoin: "无金币",
      craftCost: "制作成本", withoutEarned: "不含需要获取的物品", cheaperWay: "每种材料取更便宜的方式",
      inclDepth: "含 {0} 市场深度", atDepth: "按市场深度", buyingList: "购买清单",
      readyMade: "直接购买成品", noSellListing: "无出售挂单", lowestListing: "最低出售挂单",
      sellNow: "立即出售", noBuyOrder: "无求购订单", lessFee: "最高求购价减去 15% 手续费",
      profit: "利润", upperBound: "上限", sellLessCost: "售价减去制作成本",
      holdingsSave: "持有物节省", againstNothing: "相比从零制作",
      toEarn: " 需获取，不计入成本：{0}", someItems: "部分物品", alsoPays: "还需支付：{0}", guildUpgrades: "需要的公会升级：{0}",
      stale: "部分数据已有 {0} 秒：GW2 API 未响应。",
      paidToVendors: "支付给商人", notCoin: "非金币", bookShort: "订单簿缺少 {0}：按最高挂单计价",
      noDepth: "未读取订单簿：每件按最低挂单计价", soldPerWeek: "市场每周仅售出约 {0} 件", cheaperToCraft: "制作更便宜", neither: "无法购买也无法制作",
      nothingToBuy: "无需购买：持有物已足够。", shoppingList: "购物清单",
      colItem: "物品", colCount: "数量", colUnit: "单价", colTotal: "总计", colNote: "备注",
      totalAtDepth: "按市场深度的总计", forDepth: "含 {0} 深度",
      expandTo: "将树展开到某一层", levels: "层级：", all: "全部", recipeTree: "配方树", notTree: "不是配方树结果：没有树或摘要。",
      colLegendary: "传奇", colCost: "剩余成本", colSells: "售价", colSaved: "节省",
      notRanking: "不是排行结果：没有排行行。", pricing: "正在计算 {0} 的配方树…", yourPlan: "{0}：你的计划", close: "关闭",
      noToolCalls: "此宿主不允许视图调用工具：请用 itemId {0} 和 useAccount true 调用 priory_recipe_tree。",
      hostFailed: "宿主无法运行 priory_recipe_tree：{0}", openTree: "打开 {0} 的配方树", upperBoundTitle: "需获取的物品不计入成本：上限",
      alsoCur: "另需 {0}", priced: "{0} 件已计价", withoutTree: "{0} 件无配方树", characters: "已统计 {0} 个角色的持有物",
      ranking: "传奇利润排行", noneRanked: "没有可计价的传奇。", chooseRow: "选择一件传奇，查看结合你持有物的配方树。",
      "badge.buy": "购买", "badge.craft": "制作", "badge.forge": "熔炉", "badge.vendor": "商人", "badge.owned": "持有", "badge.unavailable": "无法获得", "badge.coin": "金币", "badge.currency": "货币", "badge.earn": "获取",
      "title.buy": "在交易站购买", "title.craft": "按配方制作", "title.forge": "在神秘熔炉中制作", "title.vendor": "从商人处购买",
      "title.owned": "取自你的持有物", "title.unavailable": "无法购买也无法制作：需要获取", "title.coin": "支付给商人的金币", "title.currency": "支付给商人的货币", "title.earn": "无法购买也无法制作：需要获取",
      "craft.title": "制作利润", "craft.notCraft": "不是制作利润结果：没有行。", "craft.colCraft": "制作品", "craft.colDiscipline": "制作专精", "craft.colCost": "成本", "craft.colRoi": "回报率",
      "craft.colInARow": "连续", "craft.colTotal": "总利润", "craft.stop.bids": "求购订单用完或降价", "craft.stop.asks": "某种材料的出售挂单用完或涨价", "craft.stop.cap": "已计算 250 次制作", "craft.stop.daily": "每日冷却：每天一次",
      "craft.stops": "停止原因：{0}", "craft.makes": "产出 {0}", "craft.dailyTitle": "每日冷却：每天一次", "craft.daily": "每日", "craft.sheetTitle": "从配方学得", "craft.sheet": "配方",
      "craft.noDepth": "未读取订单簿", "craft.soldTitle": "根据本服务器的价格历史估算", "craft.soldPerDay": "每天约售出 {0}", "craft.sellDays": "（这批需 {0} 天）", "craft.otherCur": "还需支付其他货币",
      "craft.oneCraft": "{0}：制作一次", "craft.pricing": "正在计算制作一次 {0} 的成本…", "craft.noToolCalls": "此宿主不允许视图调用工具：请用 itemId {0} 和 quantity {1} 调用 priory_recipe_tree。",
      "craft.scanned": "已扫描 {0} 个配方", "craft.pricesAt": "{0} UTC 的价格", "craft.stale": "价格已有 {0} 秒：GW2 API 未响应。", "craft.none": "目前没有可获利的制作。", "craft.hint": "选择一项制作查看其配方树。连续：沿订单簿计算仍可获利的连续制作次数。",
      "percent": "{0}%", "disc.Armorsmith": "护甲锻造师", "disc.Artificer": "工匠", "disc.Chef": "厨师", "disc.Huntsman": "猎人", "disc.Jeweler": "珠宝匠", "disc.Leatherworker": "制皮匠",
      "disc.Scribe": "书记官", "disc.Tailor": "裁缝", "disc.Weaponsmith": "武器锻造师", "history.title": "交易站历史", "history.notHistory": "不是价格历史结果：没有历史行。", "history.window": "时段 {0}",
      "history.latest": "最新快照 {0}", "history.keySell": "最低出售挂单", "history.keyBuy": "最高求购", "history.keySold": "售出", "history.keyBought": "购入（每点数量）", "history.missing": "从未在快照中出现在交易站：{0}",
      "history.lowest": "最低出售价", "history.over": "{1} 内 {0}", "history.bestOrder": "最高求购价", "history.range": "区间（出售价）", "history.volatility": "波动率 {0}%", "history.traded": "每日成交",
      "history.soldBought": "售出 {0} · 购入 {1}", "history.estimated": "估算；含已取消的挂单", "history.margin": "倒卖利润", "history.noFlip": "此价格下无法倒卖", "history.aDay": "每天 {0}",
      "history.noPoints": "此时段内还没有数据点。", "history.since": "自 {0} 起记录", "history.notYet": "尚未记录", "history.chart": "{0}：{2} 内最低出售挂单从 {1}，共 {3} 个点；柱形为每点成交数量", "history.fromTo": "{0} 到 {1}",
      "history.none": "无",
      // The Trading Post view (issue 27).
      "tp.title": "交易站", "tp.notTp": "不是交易站结果：没有订单或收益。", "tp.window": "{0} 内的收益", "tp.sold": "售出（扣除手续费）", "tp.soldNote": "{0} 件 · 扣费前 {1}",
      "tp.bought": "买入", "tp.units": "{0} 件", "tp.profitNote": "扣费后的销售额减去买入", "tp.delivery": "待领取", "tp.boxNote": "另有物品价值 {0}", "tp.selling": "你的出售挂单",
      "tp.buying": "你的求购订单", "tp.colPrice": "你的价格", "tp.colLowest": "最低出售价", "tp.colHighest": "最高求购价", "tp.colAhead": "排在前面的件数", "tp.colValue": "当前价值",
      "tp.colSold": "售出", "tp.colBought": "买入", "tp.colNet": "净收入", "tp.undercut": "被压价", "tp.outbid": "被抬价", "tp.best": "最优价",
      "tp.undercutTitle": "更便宜的挂单会先于你的售出", "tp.outbidTitle": "更高的求购会先于你的成交", "tp.lowestTitle": "你的挂单是最低价", "tp.highestTitle": "你的求购是最高价",
      "tp.atLeast": "至少 {0}", "tp.more": "另有 {0} 行未显示：调高 limit", "tp.noSelling": "没有出售挂单。", "tp.noBuying": "没有求购订单。", "tp.noDelivery": "没有待领取的物品。",
      "tp.noSales": "此时段内没有销售。", "tp.top": "收益最多"
    }
  };
  var LOCALES = { en: "en-US", de: "de-DE", fr: "fr-FR", es: "es-ES", zh: "zh-CN" };
  var current = "en";

  /** Picks the language of a code such as "de" or "fr-FR"; false (nothing changed) otherwise. */
  function use(code) {
    if (typeof code !== "string") return false;
    var short = code.toLowerCase().split("-")[0];
    if (!TEXT[short]) return false;
    current = short;
    document.documentElement.setAttribute("lang", short);
    return true;
  }

  function t(key) {
    var text = TEXT[current][key];
    if (text === undefined) text = TEXT.en[key];
    if (text === undefined) return key;
    var values = Array.prototype.slice.call(arguments, 1);
    return text.replace(/\{(\d)\}/g, function (_, index) {
      var value = values[Number(index)];
      return value === undefined ? "" : String(value);
    });
  }

  function number(value) {
    return value.toLocaleString(LOCALES[current]);
  }

  /** The coin letters: gold, silver, copper. */
  function coinLetters() {
    return TEXT[current].coins.split(" ");
  }

  return { use: use, t: t, lang: function () { return current; }, number: number, coinLetters: coinLetters };
})();
`;
