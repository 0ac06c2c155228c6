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
      "title.owned": "Taken from your holdings", "title.unavailable": "Neither bought nor crafted: earn it", "title.coin": "Coin paid to a vendor", "title.currency": "A currency paid to a vendor", "title.earn": "Neither bought nor crafted: earn it"
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
      "title.owned": "Aus deinem Besitz", "title.unavailable": "Weder kaufbar noch herstellbar: verdiene es", "title.coin": "An einen Händler gezahlte Münzen", "title.currency": "An einen Händler gezahlte Währung", "title.earn": "Weder kaufbar noch herstellbar: verdiene es"
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
      "title.owned": "Pris dans vos possessions", "title.unavailable": "Ni achetable ni fabricable : à gagner", "title.coin": "Pièces payées à un marchand", "title.currency": "Monnaie payée à un marchand", "title.earn": "Ni achetable ni fabricable : à gagner"
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
      "title.owned": "Tomado de tus posesiones", "title.unavailable": "Ni se compra ni se fabrica: hay que ganarlo", "title.coin": "Monedas pagadas a un mercader", "title.currency": "Divisa pagada a un mercader", "title.earn": "Ni se compra ni se fabrica: hay que ganarlo"
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
      "title.owned": "取自你的持有物", "title.unavailable": "无法购买也无法制作：需要获取", "title.coin": "支付给商人的金币", "title.currency": "支付给商人的货币", "title.earn": "无法购买也无法制作：需要获取"
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
