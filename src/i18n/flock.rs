//! The flock scene's words: its panels, legend, labels and pane figures.

super::messages! {
    FLOCK;
    /// The flock panel's title.
    F_TITLE: "flock · {0} model · {1}-D" => "群れ · {0}モデル · {1} 次元";
    /// The weighted model's name.
    F_MODEL_WEIGHTED: "weighted" => "重み付き";
    /// The heading model's name.
    F_MODEL_HEADING: "heading" => "向き";
    /// The Game Programming Gems model's name.
    F_MODEL_GEMS: "gems" => "Gems 版";
    /// The flock's size, edges and view.
    F_SUMMARY: "{0} boids · edges: {1} · sees within {2}" => "{0} 羽 · 端: {1} · {2} 以内が見える";
    /// The aquarium's size, edges and view.
    F_SUMMARY_FISH: "{0} fish · edges: {1} · sees within {2}" => "{0} 匹 · 端: {1} · {2} 以内が見える";
    /// Edges that wrap round.
    F_EDGES_WRAP: "wrap" => "回り込む";
    /// Edges that are walls.
    F_EDGES_WALLS: "walls" => "壁";
    /// No edges.
    F_EDGES_OPEN: "open" => "なし";
    /// Double-buffered update.
    F_UPDATE_DOUBLE: "update: double-buffered" => "更新: ダブルバッファ";
    /// In-place update.
    F_UPDATE_IN_PLACE: "update: in place, in id order" => "更新: その場で、番号順";
    /// The tick and its fixed dt.
    F_TICK_FIXED: "tick: {0} · dt: {1} (fixed)" => "ティック: {0} · dt: {1} (固定)";
    /// The tick and its varying dt.
    F_TICK_JITTER: "tick: {0} · dt: {1} ± {2}%, frame seed {3}" => "ティック: {0} · dt: {1} ± {2}%、フレームのシード {3}";
    /// No step taken yet.
    F_DT_NONE: "this tick's dt: none yet (no step taken)" => "このティックの dt: まだなし (1 ステップも進んでいない)";
    /// This tick's dt.
    F_DT_THIS: "this tick's dt: {0}" => "このティックの dt: {0}";
    /// How to inspect a boid.
    F_CLICK: "click a boid to inspect it" => "個体をクリックで詳しく表示";
    /// The world's size, 2-D.
    F_WORLD_2D: "world {0} × {1}" => "世界 {0} × {1}";
    /// The world's size, 3-D.
    F_WORLD_3D: "world {0} × {1} × {2}" => "世界 {0} × {1} × {2}";
    /// Boids outside the walls.
    F_OUTSIDE_WALLS: "{0} outside the walls" => "壁の外に {0} 羽";
    /// The aquarium's cap on mates.
    F_MAX_SEEN: "at most {0} mates seen" => "見る仲間は最大 {0} 匹";
    /// The heading model's feelers.
    F_FEELERS: "feelers: ahead ≤ {0}, within {1} of the line, turn ≤ {2}°" => "触角: 前方 {0} 以内、線から {1} 以内、回転は {2}° まで";
    /// Legend: velocity arrows.
    F_LEG_VELOCITY: "velocity (from the tip)" => "速度 (先端から)";
    /// Legend: every boid's trail.
    F_LEG_TRAILS: "trails: where the boids were" => "軌跡: 個体がいた場所";
    /// Legend: a focused boid's trail.
    F_LEG_TRAIL_DOTS: "its trail: a dot a tick" => "その軌跡: 1 ティックに 1 点";
    /// Legend: the mates seen, a crowd.
    F_LEG_SEEN_DOTS: "seen (rings; dots past 40)" => "見えた仲間 (輪。40 羽を超えると点)";
    /// Legend: the mates seen.
    F_LEG_SEEN: "seen (rings)" => "見えた仲間 (輪)";
    /// Legend: the steering.
    F_LEG_STEERING: "steering (applied)" => "操舵 (実際に加わる量)";
    /// Legend: wall boids.
    F_LEG_WALL_BOIDS: "wall boids (squares)" => "壁ボイド (四角)";
    /// Legend: the view distance.
    F_LEG_VIEW: "view distance (circle)" => "見える距離 (円)";
    /// Legend: the nearest mate.
    F_LEG_NEAREST: "nearest (ring)" => "最も近い仲間 (輪)";
    /// Legend and label: the blind zone.
    F_BLIND: "blind zone" => "死角";
    /// Legend: a fish's attitude.
    F_LEG_ATTITUDE: "fin bar: banked by the roll · arrow: the fish's top" => "ひれの棒: ロールの傾き · 矢印: 魚の背";
    /// Legend: in-place update.
    F_LEG_MOVED: "seen, moved already this tick" => "見えた仲間 (このティックで移動済み)";
    /// A fish's attitude.
    F_ATTITUDE: "roll {0}° · pitch {1}° · yaw {2}°" => "ロール {0}° · ピッチ {1}° · ヨー {2}°";
    /// A boid's heading after its name.
    F_NAME_HEADING: "{0}, heading {1}°" => "{0}、向き {1}°";
    /// The clamps a boid hit.
    F_CLAMPED: "clamped: {0}" => "クランプ: {0}";
    /// A clamp: the largest change.
    F_CLAMP_MAX_CHANGE: "max change (was {0})" => "最大変化 (元は {0})";
    /// A clamp: the top speed.
    F_CLAMP_MAX_SPEED: "max speed (was {0})" => "最高速度 (元は {0})";
    /// A clamp: the bottom speed.
    F_CLAMP_MIN_SPEED: "min speed (was {0})" => "最低速度 (元は {0})";
    /// A clamp: a capped push.
    F_CLAMP_PUSH: "push capped: {0} too close" => "押しに上限: 近すぎが {0} 件";
    /// A clamp: a full list.
    F_CLAMP_LIST: "list full ({0} seen)" => "リストが満杯 ({0} 匹見えた)";
    /// A clamp: the coordinate limit.
    F_CLAMP_COORD: "coordinate limit" => "座標の上限";
    /// A turn to the left.
    F_TURN_LEFT: "{0}° left" => "左へ {0}°";
    /// A turn to the right.
    F_TURN_RIGHT: "{0}° right" => "右へ {0}°";
    /// A boid's position.
    F_POS: "pos {0}" => "位置 {0}";
    /// A boid's velocity and speed.
    F_VEL: "vel {0} · speed {1}" => "速度 {0} · 速さ {1}";
    /// A heading-model boid's heading.
    F_HEADING: "heading {0}° (0° = +x, counter-clockwise)" => "向き {0}° (0° = +x、反時計回り)";
    /// The coming step.
    F_COMING: "the coming step (tick {0} → {1}):" => "次のステップ (ティック {0} → {1}):";
    /// The step into this tick.
    F_INTO: "the step into this tick ({0} → {1}):" => "このティックへのステップ ({0} → {1}):";
    /// How far the nearest mate is.
    F_NEAREST: "nearest: {0}, {1} away" => "最も近い仲間: {0}、距離 {1}";
    /// The nearest mate, no distance known.
    F_NEAREST_NAME: "nearest: {0}" => "最も近い仲間: {0}";
    /// Only one rule has a weight.
    F_ONLY_RULE: "steering = {0} (the other weights are 0)" => "操舵 = {0} (ほかの重みは 0)";
    /// The mates a boid saw.
    F_SEES: "sees {0} mates: {1}" => "見えた仲間 {0} 羽: {1}";
    /// The one mate a boid saw.
    F_SEES_ONE: "sees 1 mate: {0}" => "見えた仲間 1 羽: {0}";
    /// The mates a fish saw (the aquarium's counter).
    F_SEES_FISH: "sees {0} mates: {1}" => "見えた仲間 {0} 匹: {1}";
    /// The one mate a fish saw.
    F_SEES_FISH_ONE: "sees 1 mate: {0}" => "見えた仲間 1 匹: {0}";
    /// An obstacle a feeler found.
    F_FEELER: "obstacle {0}: ahead {1}, off {2}" => "障害物 {0}: 前方 {1}、横に {2}";
    /// A feeler that steers.
    F_FEELER_STEERS: "obstacle {0}: ahead {1}, off {2} → steers" => "障害物 {0}: 前方 {1}、横に {2} → 曲がる";
    /// How many wall boids.
    F_WALL_BOIDS: "wall boids: {0}" => "壁ボイド: {0}";
    /// A clamp in the inspector.
    F_CLAMP: "clamp: {0}" => "クランプ: {0}";
    /// The steering withheld on a question's beat.
    F_WITHHELD: "its steering: held back for the question" => "操舵: 予想の間は伏せてあります";
    /// The steering row.
    F_STEERING: "steering" => "操舵";
    /// The steering row of the weighted model.
    F_STEERING_SUM: "steering\t{0}  = the sum" => "操舵\t{0}  = 合計";
    /// A pane's dt, fixed.
    F_FIG_DT_FIXED: "dt {0} fixed" => "dt {0} 固定";
    /// A pane's dt before the first step.
    F_FIG_DT_NONE: "dt: no step yet" => "dt: まだステップなし";
    /// A pane's varying dt.
    F_FIG_DT: "this tick's dt {0}" => "このティックの dt {0}";
    /// The aquarium's close pairs.
    F_FIG_PAIRS: "pairs closer than 1: {0}" => "距離 1 未満の組: {0}";
    /// Heading model: the one boid that saw no one.
    F_FIG_ALONE_ONE: "1 sees no one" => "誰も見えない個体 1";
    /// A rule's row and legend: separation.
    F_RULE_SEPARATION: "separation" => "分離";
    /// A rule's row and legend: alignment.
    F_RULE_ALIGNMENT: "alignment" => "整列";
    /// A rule's row and legend: cohesion.
    F_RULE_COHESION: "cohesion" => "結合";
    /// A rule's row and legend: obstacle avoidance.
    F_RULE_OBSTACLE: "obstacle" => "障害物";
    /// A rule's row and legend: cruising.
    F_RULE_CRUISING: "cruising" => "巡航";
    /// Heading model: boids that saw no one.
    F_FIG_ALONE: "{0} see no one" => "誰も見えない個体 {0}";
    /// Boids outside the walls.
    F_FIG_OUTSIDE: "{0} outside" => "壁の外 {0}";
    /// The mean speed.
    F_FIG_SPEED: "mean speed {0}" => "平均の速さ {0}";
    /// The mean distance to the centre.
    F_FIG_SPREAD: "spread {0}" => "広がり {0}";
    /// A boid's heading.
    F_FIG_HEADS: "{0} heads {1}°" => "{0} の向き {1}°";
    /// A boid at rest.
    F_FIG_REST: "{0} at rest" => "{0} は静止";
    /// A boid's speed.
    F_FIG_BOID_SPEED: "{0} speed {1}" => "{0} の速さ {1}";
    /// How far a boid is outside the walls.
    F_FIG_FAR_OUT: "{0} outside" => "壁の外へ {0}";
    /// How many mates a boid saw.
    F_FIG_SEES: "sees {0}" => "見える仲間 {0}";
}
