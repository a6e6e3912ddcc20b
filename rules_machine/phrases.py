"""The sentences of the rules for AI, in en, pt, es, fr.

Names never appear literally: ``{c:shot}`` is the card's display name, ``{ch:lucky}`` a
character's, ``{r:sheriff}`` a role's, ``{t:law}`` a team's, ``{m:classic}`` a mode's, ``{x:glory}``
a term's (all from ``engine.texts``, the seeds' own names), and ``{n:key}`` a number or a list
generated from the engine's data (see ``render.numbers``). The wording of pt/es/fr follows the
seeds' rules text (``shared/seeds``); English follows ``shared/spec/rules.md``.

Pure data: changing a sentence changes ``texts_version`` in rules.json.
"""

from __future__ import annotations

from typing import Final

from bangarena.engine.texts import Text

P = Text

PHRASES: Final[dict[str, Text]] = {
    # -- heading and introduction --------------------------------------------------------------
    "title": P(
        en="# BangArena: rules for AI players",
        pt="# BangArena: regras para jogadores de IA",
        es="# BangArena: reglas para jugadores de IA",
        fr="# BangArena : règles pour les joueurs IA",
    ),
    "versions": P(
        en="Rules `{n:rules_version}`, engine {n:engine_version}.",
        pt="Regras `{n:rules_version}`, motor {n:engine_version}.",
        es="Reglas `{n:rules_version}`, motor {n:engine_version}.",
        fr="Règles `{n:rules_version}`, moteur {n:engine_version}.",
    ),
    "naming": P(
        en="After a name comes its `id` as views and moves use it; an id alone is the name in snake_case.",
        pt="Depois de um nome vem o seu `id`, como as visões e jogadas o usam; um id sozinho é o próprio nome.",
        es="Tras un nombre va su `id`, tal como lo usan las vistas y las jugadas; un id solo es el propio nombre.",
        fr="Après un nom vient son `id`, tel que les vues et les coups l'utilisent ; un id seul est le nom lui-même.",
    ),
    "intro": P(
        en="You hold one seat in a hidden-role western card game for {n:min_seats}–{n:max_seats} players; seats are numbered from 0, clockwise in turn order. Answer each decision with exactly one of its legal move ids.",
        pt="Você ocupa um lugar em um jogo de cartas de faroeste com papéis ocultos, para {n:min_seats}–{n:max_seats} jogadores; os lugares são numerados a partir de 0, no sentido horário, na ordem dos turnos. Responda cada decisão com exatamente um dos ids de jogadas válidas.",
        es="Ocupas un asiento en un juego de cartas del Oeste con roles ocultos, para {n:min_seats}–{n:max_seats} jugadores; los asientos se numeran desde 0, en sentido horario, en el orden de los turnos. Responde a cada decisión con exactamente uno de sus ids de jugadas válidas.",
        fr="Tu occupes une place dans un jeu de cartes western à rôles cachés, pour {n:min_seats} à {n:max_seats} joueurs ; les places sont numérotées à partir de 0, dans le sens horaire, dans l'ordre des tours. Réponds à chaque décision avec exactement l'un de ses ids de coups légaux.",
    ),
    # -- roles and victory -----------------------------------------------------------------------
    "h_roles": P(
        en="## Roles and victory",
        pt="## Papéis e vitória",
        es="## Roles y victoria",
        fr="## Rôles et victoire",
    ),
    "role_sheriff_c": P(
        en="public, plays first, cannot be jailed.",
        pt="público, joga primeiro, não pode ser preso.",
        es="público, juega primero, no se le puede encarcelar.",
        fr="public, joue en premier, ne peut pas être mis en Prison.",
    ),
    "roles_hidden_c": P(
        en="hidden roles; the {t:outlaws} do not know each other.",
        pt="papéis ocultos; os {t:outlaws} não se conhecem.",
        es="roles ocultos; los {t:outlaws} no se conocen entre sí.",
        fr="rôles cachés ; les {t:outlaws} ne se connaissent pas.",
    ),
    "role_sheriff": P(
        en="public, plays first, cannot be jailed; extra ♥ by seats {n:sheriff_bonus}; starting hand = his ♥, with {n:sheriff_hand} cards.",
        pt="público, joga primeiro, não pode ser preso; ♥ extra por lugares {n:sheriff_bonus}; mão inicial = seus ♥, com {n:sheriff_hand} cartas.",
        es="público, juega primero, no se le puede encarcelar; ♥ extra por asientos {n:sheriff_bonus}; mano inicial = sus ♥, con {n:sheriff_hand} cartas.",
        fr="public, joue en premier, ne peut pas être mis en Prison ; ♥ en plus selon les places {n:sheriff_bonus} ; main de départ = ses ♥, avec {n:sheriff_hand} cartes.",
    ),
    "roles_hidden": P(
        en="hidden roles; they start with the character's ♥ and as many cards. The {t:outlaws} do not know each other.",
        pt="papéis ocultos; começam com os ♥ do personagem e o mesmo número de cartas. Os {t:outlaws} não se conhecem.",
        es="roles ocultos; empiezan con los ♥ del personaje y otras tantas cartas. Los {t:outlaws} no se conocen entre sí.",
        fr="rôles cachés ; ils commencent avec les ♥ du personnage et autant de cartes. Les {t:outlaws} ne se connaissent pas.",
    ),
    "roles_table": P(
        en="Roles by seats: {n:roles_by_seats}.",
        pt="Papéis por lugares: {n:roles_by_seats}.",
        es="Roles por asientos: {n:roles_by_seats}.",
        fr="Rôles selon les places : {n:roles_by_seats}.",
    ),
    "victory": P(
        en="The {t:law} wins when no {r:outlaw}, {r:double_agent} or {r:renegade} is alive; the {t:outlaws} when the {r:sheriff} is eliminated, unless a single {r:renegade} is then the last one alive (he wins); a {r:renegade} only as the last player alive. Eliminated players win with their team. After round {n:max_rounds} the game is a draw.",
        pt="A {t:law} vence quando não resta vivo nenhum {r:outlaw}, {r:double_agent} ou {r:renegade}; os {t:outlaws} vencem quando o {r:sheriff} é eliminado, a menos que um único {r:renegade} seja então o único vivo (ele vence). Um {r:renegade} só vence como o último jogador vivo. Eliminados vencem com o seu time. Uma partida que passe da rodada {n:max_rounds} termina empatada.",
        es="La {t:law} gana cuando no queda vivo ningún {r:outlaw}, {r:double_agent} ni {r:renegade}; los {t:outlaws} ganan cuando el {r:sheriff} es eliminado, salvo que un único {r:renegade} sea entonces el único vivo (gana él). Un {r:renegade} solo gana como último jugador vivo. Los eliminados ganan con su equipo. Una partida que siga tras la ronda {n:max_rounds} acaba en empate.",
        fr="La {t:law} gagne quand il ne reste en vie aucun {r:outlaw}, {r:double_agent} ou {r:renegade} ; les {t:outlaws} gagnent quand le {r:sheriff} est éliminé, sauf si un seul {r:renegade} est alors l'unique survivant (il gagne). Un {r:renegade} ne gagne qu'en dernier joueur en vie. Les éliminés gagnent avec leur équipe. Une partie qui dure au-delà du round {n:max_rounds} est nulle.",
    ),
    # -- modes -----------------------------------------------------------------------------------
    "h_modes": P(en="## Modes", pt="## Modos", es="## Modos", fr="## Modes"),
    "mode_classic": P(
        en="the table above; each {r:renegade} plays alone.",
        pt="a tabela acima; cada {r:renegade} joga por si.",
        es="la tabla de arriba; cada {r:renegade} juega por su cuenta.",
        fr="la table ci-dessus ; chaque {r:renegade} joue pour lui-même.",
    ),
    "mode_partners": P(
        en="when only Renegades are left alive, all Renegades win, eliminated ones too.",
        pt="quando só restam Solitários vivos, todos os Solitários vencem, inclusive os eliminados.",
        es="cuando solo quedan Solitarios vivos, ganan todos los Solitarios, también los eliminados.",
        fr="quand il ne reste que des Solitaires en vie, tous les Solitaires gagnent, même éliminés.",
    ),
    "mode_double_agent": P(
        en="from 5 seats an {r:outlaw} is the {r:double_agent}; the {r:sheriff} privately learns two seats, a {r:deputy} and the Agent, not which is which; the Agent and the {t:outlaws} know each other; the Agent wins with the {t:outlaws} even if eliminated. It is not a {r:deputy} (no penalty).",
        pt="a partir de 5 lugares um {r:outlaw} é o {r:double_agent}; o {r:sheriff} fica sabendo em segredo de dois lugares, um {r:deputy} e o Agente, sem saber qual é qual; o Agente e os {t:outlaws} se conhecem; o Agente vence com os {t:outlaws} mesmo eliminado. Ele não é {r:deputy} (sem penalidade).",
        es="a partir de 5 asientos un {r:outlaw} es el {r:double_agent}; el {r:sheriff} conoce en privado dos asientos, un {r:deputy} y el Agente, sin saber cuál es cuál; el Agente y los {t:outlaws} se conocen; el Agente gana con los {t:outlaws} aunque esté eliminado. No es {r:deputy} (sin penalización).",
        fr="à partir de 5 places un {r:outlaw} est l'{r:double_agent} ; le {r:sheriff} apprend en privé deux places, un {r:deputy} et l'Agent, sans savoir lequel est lequel ; l'Agent et les {t:outlaws} se connaissent ; l'Agent gagne avec les {t:outlaws} même éliminé. Ce n'est pas un {r:deputy} (pas de pénalité).",
    ),
    "mode_old_classic": P(
        en="no {x:high_noon}, no {x:glory}; {c:cover} flips a card (♥ cancels); a failed {c:jail} loses the whole turn; {c:canteen} cannot be played with 2 alive; {r:sheriff} +1 ♥ at any table, hand = ♥; {ch:stone_leopard} 4 ♥; eliminating an {r:outlaw} draws {n:outlaw_reward} cards.",
        pt="sem {x:high_noon}, sem {x:glory}; a {c:cover} vira uma carta (♥ cancela); falhar na {c:jail} perde o turno inteiro; o {c:canteen} não pode ser jogado com 2 vivos; {r:sheriff} +1 ♥ em qualquer mesa, mão = ♥; {ch:stone_leopard} 4 ♥; eliminar um {r:outlaw} compra {n:outlaw_reward} cartas.",
        es="sin {x:high_noon}, sin {x:glory}; la {c:cover} voltea una carta (♥ cancela); fallar la {c:jail} pierde el turno entero; la {c:canteen} no se puede jugar con 2 vivos; {r:sheriff} +1 ♥ en cualquier mesa, mano = ♥; {ch:stone_leopard} 4 ♥; eliminar a un {r:outlaw} roba {n:outlaw_reward} cartas.",
        fr="ni {x:high_noon} ni {x:glory} ; l'{c:cover} retourne une carte (♥ annule) ; rater la {c:jail} fait perdre tout le tour ; la {c:canteen} ne se joue pas à 2 en vie ; {r:sheriff} +1 ♥ à toute table, main = ♥ ; {ch:stone_leopard} 4 ♥ ; éliminer un {r:outlaw} fait piocher {n:outlaw_reward} cartes.",
    ),
    # -- the turn --------------------------------------------------------------------------------
    "h_turn": P(en="## The turn", pt="## O turno", es="## El turno", fr="## Le tour"),
    "turn": P(
        en="1. Checks: {c:dynamite}, then {c:jail}. 2. Draw {n:draw_per_turn} cards. 3. Play any cards, in any order; one {c:shot} per turn (no limit with {c:vulcan}, for {ch:mad_dog} and at {x:high_noon}). 4. End the turn; with more cards than ♥, discard the excess one card at a time.",
        pt="1. Verificações: {c:dynamite}, depois {c:jail}. 2. Compre {n:draw_per_turn} cartas. 3. Jogue quantas cartas quiser, em qualquer ordem; um {c:shot} por turno (sem limite com a {c:vulcan}, para o {ch:mad_dog} e no {x:high_noon}). 4. Encerre o turno; com mais cartas do que ♥, descarte o excesso uma carta por vez.",
        es="1. Comprobaciones: {c:dynamite}, después {c:jail}. 2. Roba {n:draw_per_turn} cartas. 3. Juega las cartas que quieras, en cualquier orden; un {c:shot} por turno (sin límite con la {c:vulcan}, para el {ch:mad_dog} y en el {x:high_noon}). 4. Termina el turno; con más cartas que ♥, descarta las sobrantes de una en una.",
        fr="1. Contrôles : {c:dynamite}, puis {c:jail}. 2. Pioche {n:draw_per_turn} cartes. 3. Joue autant de cartes que tu veux, dans n'importe quel ordre ; un {c:shot} par tour (sans limite avec le {c:vulcan}, pour le {ch:mad_dog} et à {x:high_noon}). 4. Finis le tour ; avec plus de cartes que de ♥, défausse l'excédent une carte à la fois.",
    ),
    "high_noon": P(
        en="Rounds count on the {r:sheriff}'s turns. From round {n:high_noon_round}, {x:high_noon}: no {c:shot} limit, no {c:cover}, no healing ({c:canteen}, {c:saloon}, {ch:bonesetter}).",
        pt="As rodadas contam nos turnos do {r:sheriff}. A partir da rodada {n:high_noon_round}, {x:high_noon}: sem limite de {c:shot}, sem {c:cover}, sem cura ({c:canteen}, {c:saloon}, {ch:bonesetter}).",
        es="Las rondas se cuentan en los turnos del {r:sheriff}. Desde la ronda {n:high_noon_round}, {x:high_noon}: sin límite de {c:shot}, sin {c:cover}, sin curación ({c:canteen}, {c:saloon}, {ch:bonesetter}).",
        fr="Les rounds se comptent aux tours du {r:sheriff}. À partir du round {n:high_noon_round}, {x:high_noon} : plus de limite de {c:shot}, plus d'{c:cover}, plus de soins ({c:canteen}, {c:saloon}, {ch:bonesetter}).",
    ),
    "deck_refill": P(
        en="An empty deck is refilled by shuffling the discard pile; with both empty, a draw simply draws fewer cards.",
        pt="Baralho vazio: a pilha de descarte é embaralhada e vira o novo baralho; com os dois vazios, a compra simplesmente traz menos cartas.",
        es="Mazo vacío: la pila de descartes se baraja y forma el nuevo mazo; si ambos están vacíos, se roban menos cartas.",
        fr="Pioche vide : la défausse est mélangée pour former la nouvelle pioche ; si les deux sont vides, on pioche simplement moins de cartes.",
    ),
    "timeout": P(
        en="If you run out of time, the simplest move is made for you: take the hit, end the turn, or discard your newest card.",
        pt="Se o seu tempo acabar, a jogada mais simples é feita por você: receber o acerto, encerrar o turno ou descartar a carta mais recente.",
        es="Si se te acaba el tiempo, se hace por ti la jugada más sencilla: encajar el golpe, terminar el turno o descartar tu carta más reciente.",
        fr="Si ton temps s'écoule, le coup le plus simple est joué pour toi : encaisser le coup, finir le tour ou défausser ta carte la plus récente.",
    ),
    # -- distance --------------------------------------------------------------------------------
    "h_distance": P(
        en="## Distance and weapons",
        pt="## Distância e armas",
        es="## Distancia y armas",
        fr="## Distance et armes",
    ),
    "distance": P(
        en="Distance: the fewest steps around the table, counting only the living (neighbours: 1). A {c:shot} reaches distance ≤ your weapon's range ({c:revolver} without a weapon: 1). One weapon at a time: a new one replaces the old. {c:horse}: others see you 1 further; {c:scope}: you see others 1 closer (never below 1). {c:snatch}: distance 1 only; {c:knock_off}, {c:duel}, {c:jail}: any distance.",
        pt="Distância: o menor número de passos ao redor da mesa, contando só os vivos (vizinhos: 1). Um {c:shot} alcança distância ≤ alcance da sua arma ({c:revolver} sem arma: 1). Uma arma por vez: a nova substitui a antiga. {c:horse}: os outros veem você 1 mais longe; {c:scope}: você vê os outros 1 mais perto (nunca abaixo de 1). {c:snatch}: só distância 1; {c:knock_off}, {c:duel}, {c:jail}: qualquer distância.",
        es="Distancia: el menor número de pasos alrededor de la mesa, contando solo a los vivos (vecinos: 1). Un {c:shot} alcanza distancia ≤ alcance de tu arma ({c:revolver} sin arma: 1). Un arma a la vez: la nueva sustituye a la anterior. {c:horse}: los demás te ven 1 más lejos; {c:scope}: ves a los demás 1 más cerca (nunca menos de 1). {c:snatch}: solo distancia 1; {c:knock_off}, {c:duel}, {c:jail}: cualquier distancia.",
        fr="Distance : le plus petit nombre de pas autour de la table, en ne comptant que les vivants (voisins : 1). Un {c:shot} atteint la distance ≤ portée de ton arme ({c:revolver} sans arme : 1). Une seule arme à la fois : la nouvelle remplace l'ancienne. {c:horse} : les autres te voient 1 plus loin ; {c:scope} : tu vois les autres 1 plus près (jamais moins de 1). {c:snatch} : distance 1 seulement ; {c:knock_off}, {c:duel}, {c:jail} : toute distance.",
    ),
    "distance_c": P(
        en="Distance: the fewest steps around the table, counting only the living (neighbours: 1). A {c:shot} reaches distance ≤ your weapon's range ({c:revolver} without a weapon: 1). One weapon at a time: a new one replaces the old. {c:knock_off}, {c:duel} and {c:jail} ignore distance.",
        pt="Distância: o menor número de passos ao redor da mesa, contando só os vivos (vizinhos: 1). Um {c:shot} alcança distância ≤ alcance da sua arma ({c:revolver} sem arma: 1). Uma arma por vez: a nova substitui a antiga. {c:knock_off}, {c:duel} e {c:jail} ignoram a distância.",
        es="Distancia: el menor número de pasos alrededor de la mesa, contando solo a los vivos (vecinos: 1). Un {c:shot} alcanza distancia ≤ alcance de tu arma ({c:revolver} sin arma: 1). Un arma a la vez: la nueva sustituye a la anterior. {c:knock_off}, {c:duel} y {c:jail} ignoran la distancia.",
        fr="Distance : le plus petit nombre de pas autour de la table, en ne comptant que les vivants (voisins : 1). Un {c:shot} atteint la distance ≤ portée de ton arme ({c:revolver} sans arme : 1). Une seule arme à la fois : la nouvelle remplace l'ancienne. {c:knock_off}, {c:duel} et {c:jail} ignorent la distance.",
    ),
    # -- attacks ---------------------------------------------------------------------------------
    "h_attacks": P(
        en="## Answering attacks",
        pt="## Respondendo a ataques",
        es="## Responder a los ataques",
        fr="## Répondre aux attaques",
    ),
    "attacks": P(
        en="A {c:shot} or {c:buckshot} hit on you: {c:cover} (card or built-in) first tosses a 50/50 coin, lucky = cancelled; else discard a {c:ricochet}, or a {c:canteen} if at 1 ♥ with 3+ alive, or take the hit (−1 ♥). {c:buckshot} and {c:raid} hit every other player, each answering in turn clockwise from the attacker. {c:raid}: discard a {c:shot} or lose 1 ♥. {c:duel}: the target discards a {c:shot}, then the challenger, alternately; the first who does not loses 1 ♥.",
        pt="Um acerto de {c:shot} ou {c:buckshot} em você: a {c:cover} (carta ou embutida) joga antes uma moeda 50/50, com sorte = cancelado; senão descarte um {c:ricochet}, ou um {c:canteen} se estiver com 1 ♥ e 3+ vivos, ou receba o acerto (−1 ♥). {c:buckshot} e {c:raid} atingem todos os outros jogadores, cada um respondendo na sua vez no sentido horário a partir do atacante. {c:raid}: descarte um {c:shot} ou perca 1 ♥. {c:duel}: o alvo descarta um {c:shot}, depois quem desafiou, alternando; o primeiro que não descartar perde 1 ♥.",
        es="Un impacto de {c:shot} o de {c:buckshot} contra ti: la {c:cover} (carta o integrada) lanza antes una moneda al 50/50, con suerte = cancelado; si no, descarta un {c:ricochet}, o una {c:canteen} si estás a 1 ♥ con 3 o más vivos, o encaja el golpe (−1 ♥). {c:buckshot} y {c:raid} alcanzan a todos los demás, que responden por turno en sentido horario desde el atacante. {c:raid}: descarta un {c:shot} o pierde 1 ♥. {c:duel}: el objetivo descarta un {c:shot}, luego el retador, por turnos; el primero que no lo haga pierde 1 ♥.",
        fr="Une touche de {c:shot} ou de {c:buckshot} sur toi : l'{c:cover} (carte ou intégré) lance d'abord une pièce à 50/50, chance = annulée ; sinon défausse un {c:ricochet}, ou une {c:canteen} si tu es à 1 ♥ avec au moins 3 en vie, ou encaisse le coup (−1 ♥). La {c:buckshot} et le {c:raid} touchent tous les autres joueurs, qui répondent chacun à leur tour dans le sens horaire à partir de l'attaquant. {c:raid} : défausse un {c:shot} ou perds 1 ♥. {c:duel} : la cible défausse un {c:shot}, puis le provocateur, à tour de rôle ; le premier qui ne le fait pas perd 1 ♥.",
    ),
    "attacks_c": P(
        en="A {c:shot} or {c:buckshot} hit on you: {c:cover} (card or built-in) first tosses a 50/50 coin, lucky = cancelled; else discard a {c:ricochet}, or a {c:canteen} if at 1 ♥ with 3+ alive, or take the hit (−1 ♥). {c:buckshot} and {c:raid} hit every other player, each answering in turn clockwise from the attacker.",
        pt="Um acerto de {c:shot} ou {c:buckshot} em você: a {c:cover} (carta ou embutida) joga antes uma moeda 50/50, com sorte = cancelado; senão descarte um {c:ricochet}, ou um {c:canteen} se estiver com 1 ♥ e 3+ vivos, ou receba o acerto (−1 ♥). {c:buckshot} e {c:raid} atingem todos os outros jogadores, cada um respondendo na sua vez no sentido horário a partir do atacante.",
        es="Un impacto de {c:shot} o de {c:buckshot} contra ti: la {c:cover} (carta o integrada) lanza antes una moneda al 50/50, con suerte = cancelado; si no, descarta un {c:ricochet}, o una {c:canteen} si estás a 1 ♥ con 3 o más vivos, o encaja el golpe (−1 ♥). {c:buckshot} y {c:raid} alcanzan a todos los demás, que responden por turno en sentido horario desde el atacante.",
        fr="Une touche de {c:shot} ou de {c:buckshot} sur toi : l'{c:cover} (carte ou intégré) lance d'abord une pièce à 50/50, chance = annulée ; sinon défausse un {c:ricochet}, ou une {c:canteen} si tu es à 1 ♥ avec au moins 3 en vie, ou encaisse le coup (−1 ♥). La {c:buckshot} et le {c:raid} touchent tous les autres joueurs, qui répondent chacun à leur tour dans le sens horaire à partir de l'attaquant.",
    ),
    # -- checks ----------------------------------------------------------------------------------
    "h_checks": P(
        en="## Checks",
        pt="## Verificações",
        es="## Comprobaciones",
        fr="## Contrôles",
    ),
    "checks": P(
        en="{c:jail} and {c:dynamite} flip the deck's top card, then discard it ({n:hearts} of the {n:deck_size} cards are ♥, {n:spades} are ♠ 2–9). {c:jail}: ♥ = escape and play; else draw but do not play; the {c:jail} is discarded either way. {c:dynamite}: ♠ 2–9 = 3 damage, then discarded; else it passes to the next living player. {ch:lucky} has two tries at every check, coins included.",
        pt="A {c:jail} e a {c:dynamite} viram a carta do topo do baralho e depois a descartam ({n:hearts} das {n:deck_size} cartas são ♥, {n:spades} são ♠ 2–9). {c:jail}: ♥ = foge e joga; senão compra mas não joga; a {c:jail} é descartada de qualquer jeito. {c:dynamite}: ♠ 2–9 = 3 de dano, depois descartada; senão passa para o próximo jogador vivo. O {ch:lucky} tem duas tentativas em toda verificação, moedas inclusive.",
        es="La {c:jail} y la {c:dynamite} voltean la carta superior del mazo y luego la descartan ({n:hearts} de las {n:deck_size} cartas son ♥, {n:spades} son ♠ 2–9). {c:jail}: ♥ = te escapas y juegas; si no, robas pero no juegas; la {c:jail} se descarta en ambos casos. {c:dynamite}: ♠ 2–9 = 3 de daño, luego se descarta; si no, pasa al siguiente jugador vivo. El {ch:lucky} tiene dos intentos en cada comprobación, monedas incluidas.",
        fr="La {c:jail} et la {c:dynamite} retournent la carte du dessus de la pioche, puis la défaussent ({n:hearts} des {n:deck_size} cartes sont ♥, {n:spades} sont ♠ 2–9). {c:jail} : ♥ = tu t'évades et joues ; sinon tu pioches mais ne joues pas ; la {c:jail} est défaussée dans tous les cas. {c:dynamite} : ♠ 2–9 = 3 dégâts, puis défaussée ; sinon elle passe au joueur vivant suivant. {ch:lucky} a deux essais à chaque contrôle, pièces comprises.",
    ),
    "checks_c": P(
        en="{c:jail} and {c:dynamite} flip the deck's top card, then discard it ({n:hearts} of the {n:deck_size} cards are ♥, {n:spades} are ♠ 2–9). The {c:jail} is discarded either way; a {c:dynamite} that does not explode passes to the next living player.",
        pt="A {c:jail} e a {c:dynamite} viram a carta do topo do baralho e depois a descartam ({n:hearts} das {n:deck_size} cartas são ♥, {n:spades} são ♠ 2–9). A {c:jail} é descartada de qualquer jeito; a {c:dynamite} que não explode passa para o próximo jogador vivo.",
        es="La {c:jail} y la {c:dynamite} voltean la carta superior del mazo y luego la descartan ({n:hearts} de las {n:deck_size} cartas son ♥, {n:spades} son ♠ 2–9). La {c:jail} se descarta en ambos casos; la {c:dynamite} que no explota pasa al siguiente jugador vivo.",
        fr="La {c:jail} et la {c:dynamite} retournent la carte du dessus de la pioche, puis la défaussent ({n:hearts} des {n:deck_size} cartes sont ♥, {n:spades} sont ♠ 2–9). La {c:jail} est défaussée dans tous les cas ; une {c:dynamite} qui n'explose pas passe au joueur vivant suivant.",
    ),
    "odds": P(
        en="Odds on a full deck: {n:odds}.",
        pt="Chances com o baralho completo: {n:odds}.",
        es="Probabilidades con el mazo completo: {n:odds}.",
        fr="Chances sur une pioche complète : {n:odds}.",
    ),
    "odds_jail": P(
        en="escape {c:jail}",
        pt="fugir da {c:jail}",
        es="escapar de la {c:jail}",
        fr="évasion de {c:jail}",
    ),
    "odds_dynamite": P(
        en="{c:dynamite} explodes",
        pt="a {c:dynamite} explode",
        es="la {c:dynamite} explota",
        fr="la {c:dynamite} explose",
    ),
    "odds_cover": P(
        en="{c:cover} cancels",
        pt="a {c:cover} cancela",
        es="la {c:cover} cancela",
        fr="l'{c:cover} annule",
    ),
    "odds_old_cover": P(
        en="{c:cover} in {m:old_classic}",
        pt="{c:cover} no {m:old_classic}",
        es="{c:cover} en el {m:old_classic}",
        fr="{c:cover} en {m:old_classic}",
    ),
    "odds_lucky": P(en="{ch:lucky}", pt="{ch:lucky}", es="{ch:lucky}", fr="{ch:lucky}"),
    # -- elimination -----------------------------------------------------------------------------
    "h_elimination": P(
        en="## Elimination and glory",
        pt="## Eliminação e glória",
        es="## Eliminación y gloria",
        fr="## Élimination et gloire",
    ),
    "elimination": P(
        en="At 0 ♥ a player is eliminated: role revealed, hand, in-play cards and weapon discarded. The killer is the source of the last damage (in a {c:duel}, the other duellist; {c:dynamite}: nobody).",
        pt="Com 0 ♥ o jogador é eliminado: papel revelado, mão, cartas em jogo e arma descartadas. O autor da eliminação é a origem do último dano (num {c:duel}, o outro duelista; {c:dynamite}: ninguém).",
        es="Con 0 ♥ el jugador queda eliminado: rol revelado, mano, cartas en juego y arma descartadas. El eliminador es el origen del último daño (en un {c:duel}, el otro duelista; {c:dynamite}: nadie).",
        fr="À 0 ♥ un joueur est éliminé : rôle révélé, main, cartes en jeu et arme défaussées. L'éliminateur est l'auteur du dernier dégât (dans un {c:duel}, l'autre duelliste ; {c:dynamite} : personne).",
    ),
    "glory": P(
        en="{x:glory}: the killer gains a ★ and picks an upgrade for the rest of the game: {n:upgrades}. Upgrades stack.",
        pt="{x:glory}: quem elimina ganha uma ★ e escolhe um aprimoramento para o resto da partida: {n:upgrades}. Os aprimoramentos se somam.",
        es="{x:glory}: quien elimina gana una ★ y elige una mejora para el resto de la partida: {n:upgrades}. Las mejoras se acumulan.",
        fr="{x:glory} : celui qui élimine gagne une ★ et choisit une amélioration pour le reste de la partie : {n:upgrades}. Les améliorations se cumulent.",
    ),
    "bounty": P(
        en="{x:bounty}: eliminating a player with stars also takes one of their stars (with its upgrade) and draws 1 card per star they had.",
        pt="{x:bounty}: eliminar um jogador com estrelas também leva uma das estrelas dele (com o aprimoramento) e compra 1 carta por estrela que ele tinha.",
        es="{x:bounty}: eliminar a un jugador con estrellas también se lleva una de sus estrellas (con su mejora) y roba 1 carta por cada estrella que tenía.",
        fr="{x:bounty} : éliminer un joueur qui a des étoiles prend aussi l'une de ses étoiles (avec son amélioration) et fait piocher 1 carte par étoile qu'il avait.",
    ),
    "last_bullet": P(
        en="{x:last_bullet}: the {r:sheriff} gains a star when his last {r:deputy} is eliminated.",
        pt="{x:last_bullet}: o {r:sheriff} ganha uma estrela quando o seu último {r:deputy} é eliminado.",
        es="{x:last_bullet}: el {r:sheriff} gana una estrella cuando eliminan a su último {r:deputy}.",
        fr="{x:last_bullet} : le {r:sheriff} gagne une étoile quand son dernier {r:deputy} est éliminé.",
    ),
    "penalty": P(
        en="{x:penalty}: a {r:sheriff} who eliminates a {r:deputy} discards all his cards and gains no star for it.",
        pt="{x:penalty}: um {r:sheriff} que elimina um {r:deputy} descarta todas as suas cartas e não ganha estrela por isso.",
        es="{x:penalty}: un {r:sheriff} que elimina a un {r:deputy} descarta todas sus cartas y no gana estrella por ello.",
        fr="{x:penalty} : un {r:sheriff} qui élimine un {r:deputy} défausse toutes ses cartes et ne gagne pas d'étoile pour cela.",
    ),
    "elimination_order": P(
        en="Order after an elimination: role revealed; {ch:scavenger} takes the cards; penalty; bounty pick and draws, then the killer's star and upgrade; {ch:vulture_junior} draws 2; {x:last_bullet}; victory check.",
        pt="Ordem após uma eliminação: papel revelado; o {ch:scavenger} leva as cartas; penalidade; escolha e compras da recompensa, depois a estrela e o aprimoramento de quem eliminou; o {ch:vulture_junior} compra 2; {x:last_bullet}; verificação de vitória.",
        es="Orden tras una eliminación: rol revelado; el {ch:scavenger} se lleva las cartas; penalización; elección y robos de la recompensa, luego la estrella y la mejora del eliminador; el {ch:vulture_junior} roba 2; {x:last_bullet}; comprobación de victoria.",
        fr="Ordre après une élimination : rôle révélé ; le {ch:scavenger} prend les cartes ; pénalité ; choix et pioches de la prime, puis l'étoile et l'amélioration de l'éliminateur ; le {ch:vulture_junior} pioche 2 ; {x:last_bullet} ; contrôle de victoire.",
    ),
    # -- cards and characters --------------------------------------------------------------------
    "h_cards": P(
        en="## Cards (copies in the deck)",
        pt="## Cartas (cópias no baralho)",
        es="## Cartas (copias en el mazo)",
        fr="## Cartes (exemplaires dans le paquet)",
    ),
    "cards_rule": P(
        en="Brown cards are discarded when played; blue cards and weapons stay in play in front of you ({c:jail}: its target), one of each kind per player.",
        pt="Cartas marrons são descartadas ao serem jogadas; cartas azuis e armas ficam em jogo na sua frente ({c:jail}: do alvo), uma de cada tipo por jogador.",
        es="Las cartas marrones se descartan al jugarlas; las azules y las armas quedan en juego frente a ti ({c:jail}: su objetivo), una de cada tipo por jugador.",
        fr="Les cartes brunes sont défaussées une fois jouées ; les cartes bleues et les armes restent en jeu devant toi ({c:jail} : devant sa cible), une de chaque type par joueur.",
    ),
    "color_brown": P(en="### Brown", pt="### Marrons", es="### Marrones", fr="### Brunes"),
    "color_blue": P(en="### Blue", pt="### Azuis", es="### Azules", fr="### Bleues"),
    "color_weapon": P(en="### Weapons", pt="### Armas", es="### Armas", fr="### Armes"),
    "hint": P(en="Hint", pt="Dica", es="Consejo", fr="Astuce"),
    "deck_table": P(
        en="The deck, suit and rank of every copy:",
        pt="O baralho, naipe e valor de cada cópia:",
        es="El mazo, palo y valor de cada copia:",
        fr="Le paquet, couleur et valeur de chaque exemplaire :",
    ),
    "h_characters": P(
        en="## Characters (♥)",
        pt="## Personagens (♥)",
        es="## Personajes (♥)",
        fr="## Personnages (♥)",
    ),
    "characters_rule": P(
        en="Each player has a different character; everyone sees all abilities.",
        pt="Cada jogador tem um personagem diferente; todos veem todas as habilidades.",
        es="Cada jugador tiene un personaje distinto; todos ven todas las habilidades.",
        fr="Chaque joueur a un personnage différent ; tout le monde voit tous les pouvoirs.",
    ),
    # -- decisions -------------------------------------------------------------------------------
    "h_decisions": P(
        en="## Decisions and move ids",
        pt="## Decisões e ids de jogadas",
        es="## Decisiones e ids de jugadas",
        fr="## Décisions et ids des coups",
    ),
    "decisions_legend": P(
        en="Decision kinds and their move ids (<card>: a card id; <seat>: a seat number; <copy>: one card, e.g. shot_07; <upgrade>: {n:upgrade_ids}):",
        pt="Cada tipo de decisão e os ids das suas jogadas (<card> = um id de carta, <seat> = um número de lugar, <copy> = uma carta como shot_07, <upgrade> = {n:upgrade_ids}):",
        es="Cada tipo de decisión y los ids de sus jugadas (<card> = un id de carta, <seat> = un número de asiento, <copy> = una carta como shot_07, <upgrade> = {n:upgrade_ids}):",
        fr="Chaque type de décision et les ids de ses coups (<card> = un id de carte, <seat> = un numéro de place, <copy> = une carte comme shot_07, <upgrade> = {n:upgrade_ids}) :",
    ),
    "h_move_kinds": P(
        en="### Move kinds",
        pt="### Tipos de jogada",
        es="### Tipos de jugada",
        fr="### Types de coups",
    ),
    # -- engine details --------------------------------------------------------------------------
    "h_engine": P(
        en="## Engine details",
        pt="## Detalhes do motor",
        es="## Detalles del motor",
        fr="## Détails du moteur",
    ),
    "engine_forced": P(
        en="A decision with a single legal move is never asked: the engine plays it for you.",
        pt="Uma decisão com uma única jogada válida nunca é perguntada: o motor a faz por você.",
        es="Una decisión con una sola jugada válida nunca se pregunta: el motor la hace por ti.",
        fr="Une décision avec un seul coup légal n'est jamais posée : le moteur le joue pour toi.",
    ),
    "engine_copies": P(
        en="Moves name a card kind, not a copy: a play uses your earliest-acquired copy, a discard your most recently acquired one.",
        pt="As jogadas nomeiam um tipo de carta, não uma cópia: jogar usa a cópia obtida primeiro, descartar a obtida por último.",
        es="Las jugadas nombran un tipo de carta, no una copia: jugar usa la copia conseguida primero, descartar la conseguida la última.",
        fr="Les coups nomment un type de carte, pas un exemplaire : jouer utilise l'exemplaire obtenu en premier, défausser celui obtenu en dernier.",
    ),
    "engine_same_weapon": P(
        en="You cannot equip a weapon of the kind you already hold.",
        pt="Você não pode equipar uma arma do tipo que já tem.",
        es="No puedes equipar un arma del tipo que ya llevas.",
        fr="Tu ne peux pas équiper une arme du type que tu as déjà.",
    ),
    "engine_illegal": P(
        en="Not legal either: a {c:canteen} at full ♥, a {c:shot} with nobody in range, {c:snatch} or {c:knock_off} on a player with no cards, a second {c:jail} on a player.",
        pt="Também não são válidos: um {c:canteen} com os ♥ cheios, um {c:shot} sem ninguém ao alcance, {c:snatch} ou {c:knock_off} em quem não tem cartas, uma segunda {c:jail} no mesmo jogador.",
        es="Tampoco son válidos: una {c:canteen} con los ♥ llenos, un {c:shot} sin nadie al alcance, {c:snatch} o {c:knock_off} contra quien no tiene cartas, una segunda {c:jail} al mismo jugador.",
        fr="Pas légal non plus : une {c:canteen} à ♥ pleins, un {c:shot} sans personne à portée, {c:snatch} ou {c:knock_off} sur un joueur sans cartes, une seconde {c:jail} sur un joueur.",
    ),
    "engine_old_jail": P(
        en="In {m:old_classic}, a failed {c:jail} also skips the discard step.",
        pt="No {m:old_classic}, falhar na {c:jail} também pula o descarte.",
        es="En el {m:old_classic}, fallar la {c:jail} también se salta el descarte.",
        fr="En {m:old_classic}, rater la {c:jail} saute aussi la défausse.",
    ),
    "engine_glory_dropped": P(
        en="When an elimination ends the game, star and upgrade picks not yet made are dropped.",
        pt="Quando uma eliminação encerra a partida, as escolhas de estrela e aprimoramento ainda não feitas são descartadas.",
        es="Cuando una eliminación termina la partida, las elecciones de estrella y mejora pendientes se anulan.",
        fr="Quand une élimination termine la partie, les choix d'étoile et d'amélioration pas encore faits sont annulés.",
    ),
    "engine_own_turn": P(
        en="Dying on your own turn ends it at once, with no discard step.",
        pt="Morrer no próprio turno o encerra na hora, sem descarte.",
        es="Morir en tu propio turno lo termina en el acto, sin descarte.",
        fr="Mourir pendant son propre tour le termine aussitôt, sans défausse.",
    ),
}
"""Every sentence of the rules for AI, by key."""

TEAM_WINS: Final[dict[str, Text]] = {
    "law": P(
        en="No Outlaw, Double Agent or Renegade is alive. Eliminated Deputies win too.",
        pt="Não resta vivo nenhum Bandido, Agente Duplo ou Solitário. Ajudantes eliminados também vencem.",
        es="No queda vivo ningún Asaltante, Agente doble ni Solitario. Los Ayudantes eliminados también ganan.",
        fr="Il ne reste en vie aucun Pillard, Agent double ou Solitaire. Les Adjoints éliminés gagnent aussi.",
    ),
    "outlaws": P(
        en="The Sheriff is eliminated and a single Renegade is not the only one left. Every Outlaw and the Double Agent win, eliminated ones included.",
        pt="O Xerife está fora e um Solitário sozinho não é o único que restou. Todos os Bandidos e o Agente Duplo vencem, inclusive os eliminados.",
        es="El Mariscal ha caído y un Solitario no es el único que queda. Ganan todos los Asaltantes y el Agente doble, también los eliminados.",
        fr="Le Shérif est éliminé et un Solitaire n'est pas le seul survivant. Tous les Pillards et l'Agent double gagnent, y compris les éliminés.",
    ),
    "renegade": P(
        en="The only player alive at the table; in Partners mode, all Renegades win when every player alive is a Renegade.",
        pt="O único jogador vivo na mesa; no modo Parceiros, todos os Solitários vencem quando todos os jogadores vivos são Solitários.",
        es="El único jugador vivo en la mesa; en el modo Parejas, ganan todos los Solitarios cuando todos los jugadores vivos son Solitarios.",
        fr="Le seul joueur encore en vie à la table ; en mode Partenaires, tous les Solitaires gagnent quand chaque joueur en vie est un Solitaire.",
    ),
}
"""When each team wins (from the seeds' "Victory" section), published in rules.json."""

ENGINE_DECISIONS: Final[tuple[str, ...]] = (
    "engine_forced",
    "engine_copies",
    "engine_same_weapon",
    "engine_illegal",
    "engine_old_jail",
    "engine_glory_dropped",
    "engine_own_turn",
)
"""The phrases stating what the engine decided beyond the rules digest (rules.json lists them)."""
