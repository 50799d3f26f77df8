//! The path scene's words: its panels, legend, tile titles and the
//! steps of the search.

super::messages! {
    PATH;
    /// Legend: the start.
    P_LEG_START: "start S (frame)" => "スタート S (枠)";
    /// Legend: the goal.
    P_LEG_GOAL: "goal G (ring)" => "ゴール G (輪)";
    /// Legend: heights.
    P_LEG_HEIGHTS: "heights: lighter is higher" => "高さ: 明るいほど高い";
    /// Legend: open cells.
    P_LEG_OPEN: "open (ring)" => "オープン (輪)";
    /// Legend: closed cells.
    P_LEG_CLOSED: "closed (square)" => "クローズド (四角)";
    /// Legend: the path.
    P_LEG_PATH: "path" => "経路";
    /// Legend: cliffs.
    P_LEG_CLIFF: "cliff (no move across)" => "崖 (越えられない)";
    /// Legend: the parent arrows.
    P_LEG_PARENTS: "parent: where each cell was reached from (arrow)" => "親: 各セルに来た元 (矢印)";
    /// Legend: an edge the rule lets a path cross one way only (a drop it
    /// cannot climb back up).
    P_LEG_ONE_WAY: "one-way ledge: crossed only the way its arrow points" => "一方通行の段差: 矢印の向きにだけ越えられる";
    /// Legend: corner cuts.
    P_LEG_CUT: "diagonal that cuts a corner (×)" => "角を切る斜めの移動 (×)";
    /// Legend: walls.
    P_LEG_WALL: "wall (hatched)" => "壁 (斜線)";
    /// A search's status, withheld for a question.
    P_HELD: "status held back" => "状態は伏せてあります";
    /// A callout: the goal found.
    P_CALLOUT_FOUND: "found" => "発見";
    /// A callout: the goal cannot be reached.
    P_CALLOUT_UNREACHABLE: "unreachable" => "到達不能";
    /// Expansions with repeats.
    P_AGAIN: "{0} ({1} again)" => "{0} (うち {1} 回は再展開)";
    /// A search still searching.
    P_SEARCHING: "searching" => "探索中";
    /// A search that found the goal.
    P_FOUND: "found, cost {0}" => "発見、コスト {0}";
    /// A search that gave up.
    P_UNREACHABLE: "unreachable: the open list ran empty" => "到達不能: オープンリストが空になりました";
    /// The expansions a search made.
    P_EXPANDED: "{0} · expanded {1}" => "{0} · 展開 {1}";
    /// A heuristic that may overestimate.
    P_OVERESTIMATE: "h may overestimate" => "h が過大評価になりうる";
    /// The summary panel's title.
    P_SUMMARY: "A* · tick {0}" => "A* · ティック {0}";
    /// A search's counts.
    P_COUNTS: "{0}: expanded {1}, open {2}" => "{0}: 展開 {1}、オープン {2}";
    /// The coming step's panel.
    P_COMING: "{0} · the coming step ({1} → {2})" => "{0} · 次のステップ ({1} → {2})";
    /// The last step's panel.
    P_LAST: "{0} · the last step ({1} → {2})" => "{0} · 直前のステップ ({1} → {2})";
    /// The open list, best first.
    P_OPEN_BEST: "open list, best first · {0} · {1}" => "オープンリスト (よい順) · {0} · {1}";
    /// The open list in push order.
    P_OPEN_PUSHED: "open list in the order pushed (which is best is held back) · {0} · {1}" => "オープンリスト: 追加した順 (どれが最良かは伏せてあります) · {0} · {1}";
    /// How many entries.
    P_ENTRIES: "{0} entries" => "{0} 件";
    /// One entry.
    P_ENTRY: "1 entry" => "1 件";
    /// The open list's header.
    P_OPEN_HEAD: "#\tcell\tf = g + h" => "#\tセル\tf = g + h";
    /// The open list's tie rule.
    P_OPEN_TIES: "equal f: {0}" => "f が同じとき: {0}";
    /// FIFO ties.
    P_TIE_FIFO: "first pushed first" => "先に追加したほうが先";
    /// LIFO ties.
    P_TIE_LIFO: "last pushed first" => "後に追加したほうが先";
    /// Larger-g ties.
    P_TIE_LARGER_G: "larger g first" => "g が大きいほうが先";
    /// Smaller-h ties.
    P_TIE_SMALLER_H: "smaller h first" => "h が小さいほうが先";
    /// A tie key: the push counter.
    P_PUSHED: "pushed #{0}" => "追加 #{0}";
    /// A tie key: g and the push counter.
    P_PUSHED_G: "g {0}, pushed #{1}" => "g {0}、追加 #{1}";
    /// A tie key: h and the push counter.
    P_PUSHED_H: "h {0}, pushed #{1}" => "h {0}、追加 #{1}";
    /// A stale entry.
    P_STALE: "stale: g is {0} now" => "古い: 今の g は {0}";
    /// More entries.
    P_MORE: "… {0} more" => "… ほか {0} 件";
    /// An empty list.
    P_EMPTY: "(empty)" => "(空)";
    /// Event: the heuristic may overestimate.
    P_EV_NOT_ADMISSIBLE: "the heuristic may overestimate" => "ヒューリスティックが過大評価になりうる";
    /// Event: a stale copy expanded.
    P_EV_STALE: " (a stale copy: the cell has g = {0})" => " (古いコピー: セルの g は {0})";
    /// Event: an expansion.
    P_EV_EXPAND: "expand {0}: g = {1}, f = {2}{3}" => "展開 {0}: g = {1}、f = {2}{3}";
    /// Event: a push.
    P_EV_PUSH: "push {0}: g = {1}, h = {2}" => "追加 {0}: g = {1}、h = {2}";
    /// Event: an improvement.
    P_EV_IMPROVE: "improve {0}: g {1} → {2}" => "改善 {0}: g {1} → {2}";
    /// Event: an improvement that reopens a closed cell.
    P_EV_REOPEN: "improve {0}: g {1} → {2} (reopened)" => "改善 {0}: g {1} → {2} (再オープン)";
    /// Event: a skipped move.
    P_EV_SKIP: "skip {0}: {1}" => "飛ばす {0}: {1}";
    /// Event: the goal found.
    P_EV_FOUND: "found: cost {0}" => "発見: コスト {0}";
    /// Event: the list ran empty.
    P_EV_EMPTY: "the open list is empty: unreachable" => "オープンリストが空: 到達不能";
    /// Why a move is blocked: off the map.
    P_OFF_MAP: "off the map" => "地図の外";
    /// Why a move is blocked: a wall.
    P_WALL: "wall" => "壁";
    /// Why a move is blocked: too steep up.
    P_CLIFF_UP: "cliff, climb {0}" => "崖、{0} 段登り";
    /// Why a move is blocked: too steep down.
    P_CLIFF_DOWN: "cliff, drop {0}" => "崖、{0} 段下り";
    /// Why a move is blocked: a corner cut.
    P_CORNER: "cuts a corner" => "角を切る";
    /// A 4-way search has no diagonal.
    P_NO_DIAGONAL: "4-way: none" => "4 方向: なし";
    /// The costs panel of a wall.
    P_MOVES_FROM: "moves from {0}" => "{0} からの移動";
    /// A wall has no moves.
    P_WALL_NO_MOVES: "a wall: no moves" => "壁: 移動なし";
    /// The cost rule.
    P_RULE: "{0}: 1 + {1}·climb{2}, climb ≤ {3}, drop ≤ {4}{5}" => "{0}: 1 + {1}·登り{2}、登り ≤ {3}、下り ≤ {4}{5}";
    /// The cost rule's downhill term.
    P_RULE_DROP: " + {0}·drop" => " + {0}·下り";
    /// The cost rule's diagonals.
    P_RULE_DIAGONAL: "; a diagonal × 1.41 (√2), no corner cut" => "。斜めは × 1.41 (√2)、角は切らない";
    /// The costs table's header, several searches.
    P_COSTS_HEAD_MANY: "move\theight\tcost ({0})" => "移動\t高さ\tコスト ({0})";
    /// The costs table's header.
    P_COSTS_HEAD: "move\theight\tcost" => "移動\t高さ\tコスト";
    /// A move: left.
    P_LEFT: "left {0}" => "左 {0}";
    /// A move: up.
    P_UP: "up {0}" => "上 {0}";
    /// A move: right.
    P_RIGHT: "right {0}" => "右 {0}";
    /// A move: down.
    P_DOWN: "down {0}" => "下 {0}";
    /// A move: up-left.
    P_UP_LEFT: "up-left {0}" => "左上 {0}";
    /// A move: up-right.
    P_UP_RIGHT: "up-right {0}" => "右上 {0}";
    /// A move: down-right.
    P_DOWN_RIGHT: "down-right {0}" => "右下 {0}";
    /// A move: down-left.
    P_DOWN_LEFT: "down-left {0}" => "左下 {0}";
    /// A climb.
    P_CLIMB: "up {0}" => "{0} 段登る";
    /// A drop.
    P_DROP: "down {0}" => "{0} 段下る";
    /// Level.
    P_LEVEL: "level" => "平ら";
    /// The costs panel's title.
    P_MOVES_FROM_HEIGHT: "moves from {0}, height {1}" => "{0} からの移動、高さ {1}";
}
