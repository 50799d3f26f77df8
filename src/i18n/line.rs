//! The line scene's words: its panels (the chasers, the sight test,
//! Bresenham's rule and the error-term table) and its legend.

super::messages! {
    LINE;
    /// Legend: one chaser.
    L_LEG_CHASER: "{0}: disc, plan (frames), walk from ◇" => "{0}: 円、計画 (枠)、◇ からの歩み";
    /// Legend: many chasers.
    L_LEG_CHASERS: "chasers: disc, plan, walk from ◇, each its colour" => "追跡者: 円、計画、◇ からの歩み (それぞれの色)";
    /// Legend: a target.
    L_LEG_TARGET: "target (ring)" => "目標 (輪)";
    /// Legend: the ideal line.
    L_LEG_IDEAL: "ideal line (thin)" => "理想の直線 (細線)";
    /// Legend: sight from the chaser.
    L_LEG_THERE: "chaser → target: dots left" => "追跡者 → 目標: 点は左";
    /// Legend: sight back.
    L_LEG_BACK: "target → chaser: dots right" => "目標 → 追跡者: 点は右";
    /// Legend: a blocked line.
    L_LEG_BLOCKED_TO: "blocked: line to the ×" => "遮られた線: × まで";
    /// Legend: one direction only.
    L_LEG_ONE_WAY: "one direction only (frame)" => "片方向だけ (枠)";
    /// Legend: clear sight.
    L_LEG_CLEAR: "sight: clear" => "視線: 通る";
    /// Legend: blocked sight.
    L_LEG_BLOCKED: "blocked (×)" => "遮られる (×)";
    /// The border half a cell past the current minor row.
    L_BORDER: "j + ½" => "j + ½ (境目)";
    /// Legend: the decision's border alone (the step held back).
    L_LEG_BORDER: "the border j + ½ (yellow) and the next column's centre (dashed)" => "境目 j + ½ (黄) と次の列の中央 (破線)";
    /// Legend: the decision.
    L_LEG_DECISION: "border j + ½ (yellow), next column's centre (dashed); the line there: green dot past, blue short" => "境目 j + ½ (黄) と次の列の中央 (破線); そこでの直線 (点: 緑は境目を越えた、青は届かない)";
    /// Legend: the side view.
    L_LEG_PROFILE: "side view: ground (bars), eyes, sight line" => "横から見た図: 地面 (棒)、目、視線";
    /// A chaser ready.
    L_READY: "ready" => "出発前";
    /// A chaser walking.
    L_WALKING: "walking" => "歩行中";
    /// A chaser arrived.
    L_ARRIVED: "arrived" => "到着";
    /// A chaser stopped by a wall.
    L_BLOCKED_AT: "blocked by the wall at {0}" => "{0} の壁で止まった";
    /// A chaser that walked its longest plan.
    L_STOPPED: "stopped after {0} cells" => "{0} セルで停止";
    /// The chasers' panel, with the eye height.
    L_TITLE_EYES: "chasers · tick {0} · eye height {1}" => "追跡者 · ティック {0} · 目の高さ {1}";
    /// The chasers' panel.
    L_TITLE: "chasers · tick {0}" => "追跡者 · ティック {0}";
    /// A chaser sees its target.
    L_SEES: "sees {0}" => "{0} が見える";
    /// A chaser's sight blocked.
    L_SIGHT_BLOCKED: "sight blocked at {0}" => "{0} で視線が遮られる";
    /// A chaser cannot see its target.
    L_CANNOT_SEE: "cannot see {0}" => "{0} が見えない";
    /// The target sees the chaser.
    L_SEEN_BACK: "{0} sees {1}" => "{0} から {1} が見える";
    /// The target does not see the chaser.
    L_NOT_SEEN_BACK: "{0} does not see {1}" => "{0} から {1} は見えない";
    /// A sight verdict after a chaser's status.
    L_AND: "; {0}" => "。{0}";
    /// A chaser's line of the panel.
    L_CHASER: "{0} at {1} → {2} {3}: {4}{5}" => "{0} は {1} → {2} {3}: {4}{5}";
    /// The target moved.
    L_TARGET_MOVED: "the target moved: a new line at the next step" => "目標が動いた: 次のステップで新しい直線";
    /// A target's move.
    L_MOVED: "{0} moved {1} → {2}" => "{0} が移動 {1} → {2}";
    /// A target's random move.
    L_MOVED_RANDOM: "{0} moved {1} → {2} (random)" => "{0} が移動 {1} → {2} (ランダム)";
    /// Standing on the target's cell.
    L_SAME_CELL: "{0} stands on {1}'s cell: it sees {1}" => "{0} は {1} のセルにいる: {1} が見える";
    /// The eye heights.
    L_EYES: "eyes: {0} zA = {1} + {2} = {3}, {4} zB = {5} + {2} = {6}" => "目: {0} zA = {1} + {2} = {3}、{4} zB = {5} + {2} = {6}";
    /// The steps and the test.
    L_STEPS: "n = {0} steps; the cell k steps along blocks if it is a wall or" => "n = {0} ステップ。k ステップ目のセルが遮るのは、壁のときか";
    /// A wall blocks.
    L_WALL_BLOCKS: "k = {0}: {1} is a wall → blocked" => "k = {0}: {1} は壁 → 遮られる";
    /// A cell blocks.
    L_CELL_BLOCKS: "k = {0}: {1} h = {2}: {2}·{3} = {4} > {5}·{3} {6} {7}·{0} = {8} → blocked" => "k = {0}: {1} h = {2}: {2}·{3} = {4} > {5}·{3} {6} {7}·{0} = {8} → 遮られる";
    /// The cell closest to blocking.
    L_CLOSEST: "closest: k = {0}: {1} h = {2}: {3} ≤ {4} → {5} sees {6}" => "最も近い: k = {0}: {1} h = {2}: {3} ≤ {4} → {5} から {6} が見える";
    /// Nothing between.
    L_NOTHING_BETWEEN: "no cell between: {0} sees {1}" => "間にセルなし: {0} から {1} が見える";
    /// The sight panel's title.
    L_SIGHT_TITLE: "sight · {0} → {1}" => "視線 · {0} → {1}";
    /// A line and its major axis.
    L_LINE: "line {0} → {1}, {2}-major" => "直線 {0} → {1}、主軸 {2}";
    /// The starting error term.
    L_START: "{0}start: f = 2·{1} − {2} = 2·{3} − {4} = {5}" => "{0}最初: f = 2·{1} − {2} = 2·{3} − {4} = {5}";
    /// The rule below zero.
    L_BELOW: "f < 0: major axis only; f += 2·{0} = {1}" => "f < 0: 主軸だけ進む。f += 2·{0} = {1}";
    /// The rule at or above zero.
    L_ABOVE: "f ≥ 0: both axes; f += 2·{0} − 2·{1} = {2}" => "f ≥ 0: 両方の軸が進む。f += 2·{0} − 2·{1} = {2}";
    /// The closed form.
    L_CLOSED_FORM: "{0}i.e. f = 2·{1}·(i+1) − {2}·(2j+1)" => "{0}つまり f = 2·{1}·(i+1) − {2}·(2j+1)";
    /// The steps so far in the closed form.
    L_SO_FAR: "{0} {1}-steps (i), {2} {3}-steps (j): 2·{4}·{5} − {6}·{7} = {8}" => "{1} 方向に {0} 歩 (i)、{3} 方向に {2} 歩 (j): 2·{4}·{5} − {6}·{7} = {8}";
    /// The next step withheld.
    L_NEXT_HELD: "next step: held back for the question" => "次のステップ: 予想の間は伏せてあります";
    /// The next step.
    L_NEXT: "{0}next (step {1}): f = {2} {3} → {4}, then f = {5}" => "{0}次 (ステップ {1}): f = {2} {3} → {4}、そのあと f = {5}";
    /// Both axes.
    L_BOTH: "≥ 0: both axes" => "≥ 0: 両方の軸";
    /// The major axis only.
    L_MAJOR: "< 0: major axis only" => "< 0: 主軸だけ";
    /// The plan is done.
    L_DONE: "the plan is walked to its end" => "計画は最後まで歩き終えた";
    /// The formula panel's title.
    L_FORMULA_TITLE: "Bresenham · {0}" => "ブレゼンハム · {0}";
    /// The error table's header.
    L_TABLE_HEAD: "step\tf before\tdecision\tcell\tf after" => "ステップ\t前の f\t判定\tセル\t後の f";
    /// Steps left out of the table.
    L_EARLIER: "… {0} earlier steps" => "… それより前のステップ {0} 個";
    /// One step left out of the table.
    L_EARLIER_ONE: "… 1 earlier step" => "… それより前のステップ 1 個";
    /// A decision: both axes.
    L_DECIDE_BOTH: "f ≥ 0: both" => "f ≥ 0: 両方";
    /// A decision: the major axis.
    L_DECIDE_MAJOR: "f < 0: major" => "f < 0: 主軸";
    /// The next row, emphasised.
    L_NEXT_ROW_MARKED: "▶ next " => "▶ 次 ";
    /// The next row.
    L_NEXT_ROW: "next " => "次 ";
    /// The error table's title.
    L_TABLE_TITLE: "error term · {0}" => "誤差項 · {0}";
}
