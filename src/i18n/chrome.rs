//! The viewer's own words: the status line, the side panel's and the
//! narration's continuation marks, the picker, help, prompts, remarks
//! and banners, the names of entities and overlays.

super::messages! {
    CHROME;
    /// A user sim's side panel: its state's fields at a tick.
    U_STATE: "state at tick {0}" => "ティック {0} の状態";
    /// A user sim's side panel: its marks (forces, radii) by entity.
    U_MARKS: "why they move" => "動く理由";
    /// A user sim's side panel: the fields it has no room for.
    U_MORE_FIELDS: "… and {0} more fields (flockstep dump)" => "… ほか {0} 項目 (flockstep dump)";
    /// The status line: the clock waits for the class's prediction.
    STATUS_PREDICT: "predict, then Space shows the answer" => "予想してから Space で答えを表示";
    /// The status line: the clock holds at a pause beat.
    STATUS_HELD: "held at a beat: Space continues" => "ビートで停止中: Space で続き";
    /// The status line: playing.
    STATUS_PLAYING: "playing" => "再生中";
    /// The status line: paused.
    STATUS_PAUSED: "paused: Space plays" => "一時停止: Space で再生";
    /// The status line: beat, tick, speed and the clock's state.
    STATUS_LINE: "beat {0}/{1}   tick {2}/{3}   {4} {5}" => "ビート {0}/{1}   ティック {2}/{3}   {4} {5}";
    /// The status line on a question's beat: no last tick (when the run
    /// ends can be the answer).
    STATUS_LINE_ASKING: "beat {0}/{1}   tick {2}   {3} {4}" => "ビート {0}/{1}   ティック {2}   {3} {4}";
    /// The status line: a replay's title.
    STATUS_REPLAY: "{0} (replay {1})" => "{0} (リプレイ {1})";
    /// The status line: the run left its lesson.
    STATUS_YOUR_RUN: "YOUR RUN: changed at tick {0} · {1}" => "あなたの実行: ティック {0} で変更 · {1}";
    /// The status line: the state hash.
    STATUS_HASH: "state {0}" => "状態 {0}";
    /// The side panel: lines below the fold.
    PANEL_MORE: "▼ {0} more lines: scroll with the wheel here" => "▼ あと {0} 行: ここでホイールを回すと見えます";
    /// The side panel: scrolled down.
    PANEL_SCROLLED: "▲ scrolled: wheel up for the top" => "▲ スクロール中: ホイールを上に回すと先頭へ";
    /// The narration: more pages follow.
    NARRATION_MORE: "▼ more: PgDn ({0}/{1})" => "▼ 続き: PgDn ({0}/{1})";
    /// The narration: the last page.
    NARRATION_LAST: "({0}/{1}) PgUp for the start" => "({0}/{1}) PgUp で最初へ";
    /// Introduces a beat's question.
    QUESTION: "Predict:" => "予想してください:";
    /// The picker's heading.
    PICKER_TITLE: "flockstep — pick a lesson" => "flockstep — レッスンを選んでください";
    /// How to use the picker on the desktop.
    PICKER_HOW: "↑/↓ and Enter, or click; the wheel scrolls. Esc quits. Drop a replay (.fsr) or lesson (.toml) here. L: language." => "↑/↓ と Enter、またはクリック。ホイールでスクロール。Esc で終了。リプレイ (.fsr) やレッスン (.toml) はここにドロップ。L: 言語。";
    /// How to use the picker on the web page.
    PICKER_HOW_WEB: "↑/↓ and Enter, or click; the wheel scrolls. Open or drop a replay (.fsr) or lesson (.toml) on the page. L: language." => "↑/↓ と Enter、またはクリック。ホイールでスクロール。リプレイ (.fsr) やレッスン (.toml) はページで開くかドロップ。L: 言語。";
    /// A sim's heading in the picker.
    PICKER_GROUP: "{0} lessons" => "{0} のレッスン";
    /// The flock sim's name.
    SIM_FLOCK: "flock" => "群れ";
    /// The path sim's name.
    SIM_PATH: "path" => "経路探索";
    /// The line sim's name.
    SIM_LINE: "line" => "直線と視線";
    /// The picker: rows above.
    PICKER_ABOVE: "▲ more above" => "▲ 上にもあります";
    /// The picker: rows below.
    PICKER_BELOW: "▼ more below" => "▼ 下にもあります";
    /// Help: saving on the desktop.
    HELP_SAVE: "Ctrl+S save the session as a replay (the path is shown)" => "Ctrl+S この実行をリプレイとして保存 (保存先を表示)";
    /// Help: saving on the web page.
    HELP_SAVE_WEB: "Ctrl+S download the session as a replay   Ctrl+O open a file" => "Ctrl+S この実行をリプレイとしてダウンロード   Ctrl+O ファイルを開く";
    /// Help: the clock's keys.
    HELP_KEYS_CLOCK: "Space play / pause (continues a held beat)   ← → one tick   PgUp PgDn beats (and pages)" => "Space 再生 / 一時停止 (止まったビートの続き)   ← → 1 ティック   PgUp PgDn ビート (とページ)";
    /// Help: restart, speed and size.
    HELP_KEYS_VIEW: "Home restart   [ ] slower / faster   + − text and pictures larger / smaller (also with Ctrl)" => "Home 最初から   [ ] 遅く / 速く   + − 文字と絵を大きく / 小さく (Ctrl と一緒でも)";
    /// Help: language, help, beat tabs, saving, back.
    HELP_KEYS_MORE: "L narration language   H this help   click a beat number to go there   {0}   Esc back" => "L 言語   H このヘルプ   ビート番号をクリックでそのビートへ   {0}   Esc 戻る";
    /// Help: the 3-D flock's mouse.
    HELP_FLOCK_3D: "click a fish to inspect it   right-drag or Shift+arrows: orbit   wheel: zoom" => "魚をクリックで詳しく表示   右ドラッグか Shift+矢印: 回転   ホイール: 拡大縮小";
    /// Help: the 2-D flock's mouse.
    HELP_FLOCK_2D: "click a boid to inspect it   B: drop a boid at the mouse   drag an obstacle   wheel: zoom" => "個体をクリックで詳しく表示   B: マウスの位置に個体を追加   障害物をドラッグ   ホイール: 拡大縮小";
    /// Help: the path sim's mouse.
    HELP_PATH: "drag the goal (G) or the start (S) to move it; hover a cell to see its move costs; wheel: zoom" => "ゴール (G) かスタート (S) をドラッグで移動。セルにマウスを置くと移動コストを表示。ホイール: 拡大縮小";
    /// Help: the line sim's mouse.
    HELP_LINE: "click a chaser to follow it alone; drag a target (ring) or a chaser to move it; wheel: zoom" => "追跡者をクリックでその 1 体だけ表示。目標 (輪) か追跡者をドラッグで移動。ホイール: 拡大縮小";
    /// Help: the overlays' heading.
    HELP_OVERLAYS: "overlays (the key toggles one until the next beat):" => "重ね描き (キーで次のビートまで切り替え):";
    /// Help: one overlay: its key, whether it is on, its name and id.
    HELP_OVERLAY: "   {0}   {1} {2} ({3})" => "   {0}   {1} {2} ({3})";
    /// Help: the parameter panel and the map brush.
    HELP_PANEL: "P parameters: ↑ ↓ choose, , . change or drag the slider (recorded at this tick), Backspace the lesson's value, Tab which pane" => "P パラメータ: ↑ ↓ で選択、, . かスライダーのドラッグで変更 (このティックに記録)、Backspace でレッスンの値、Tab で対象の画面";
    /// The panel's heading: where changes go.
    PANEL_TITLE: "Parameters: changes go to {0}" => "パラメータ: 変更の対象は{0}";
    /// The panel's target: every pane.
    PANEL_ALL: "every pane" => "すべての画面";
    /// The panel's target: one pane (its title).
    PANEL_PANE: "pane {0} ({1})" => "画面 {0} ({1})";
    /// The panel's target: a lesson with one pane.
    PANEL_ONE: "this run" => "この実行";
    /// A control's lesson value, beside its own.
    PANEL_LESSON: "lesson: {0}" => "レッスン: {0}";
    /// The panel's keys, at its foot.
    PANEL_KEYS: "↑ ↓ choose · , . change · Backspace: the lesson's value · Tab: which pane · P close" => "↑ ↓ 選択 · , . 変更 · Backspace: レッスンの値 · Tab: 対象の画面 · P 閉じる";
    /// The panel of a sim with no parameters to vary.
    PANEL_NONE: "This sim has no parameters to change while it runs." => "このシミュレーションには実行中に変えられるパラメータがありません。";
    /// The panel on a replay.
    PANEL_REPLAY: "A replay is fixed: open its lesson to change parameters." => "リプレイは変更できません。パラメータを変えるにはレッスンを開いてください。";
    /// Help: the map brush.
    HELP_BRUSH: "M map brush: drag paints walls, right-drag clears, Z / X raise / lower the cell under the mouse (each stroke recorded)" => "M 地図ブラシ: ドラッグで壁、右ドラッグで消去、Z / X でマウス下のマスを上げる / 下げる (すべて記録)";
    /// The status line while the brush is on.
    BRUSH_ON: "brush: drag paints walls, right-drag clears (M ends)" => "ブラシ: ドラッグで壁、右ドラッグで消去 (M で終了)";
    /// Help's footer.
    HELP_CLOSE: "H or Esc closes this help" => "H か Esc でヘルプを閉じる";
    /// The restart prompt.
    PROMPT_LEFT: "This run has left the lesson: you changed it at tick {0}." => "この実行はレッスンから外れています: ティック {0} で変更しました。";
    /// The restart prompt: Enter.
    PROMPT_AS_WRITTEN: "Enter   restart the lesson as written" => "Enter   書かれたとおりのレッスンを最初から";
    /// The restart prompt: K.
    PROMPT_YOURS: "K         restart your run, with its changes, from tick 0" => "K         変更を含めたあなたの実行をティック 0 から";
    /// The restart prompt: Esc.
    PROMPT_STAY: "Esc      go on where you are" => "Esc      このまま続ける";
    /// An error banner's footer.
    ERROR_DISMISS: "Esc to dismiss" => "Esc で閉じる";
    /// An error banner's heading.
    ERROR_TITLE: "This did not open:" => "開けませんでした:";
    /// A saved session.
    SAVED: "saved {0} ({1} bytes)" => "{0} に保存しました ({1} バイト)";
    /// A session being downloaded.
    DOWNLOADING: "downloading {0} ({1} bytes): your browser saves it in its downloads folder" => "{0} をダウンロード中 ({1} バイト): ブラウザーのダウンロードフォルダーに保存されます";
    /// A session that could not be saved.
    SAVE_FAILED: "could not save the session: {0}" => "実行を保存できませんでした: {0}";
    /// A what-if saved as a lesson.
    SAVED_LESSON: "saved the what-if as the lesson {0}: flockstep view {0}" => "この what-if をレッスン {0} として保存しました: flockstep view {0}";
    /// A what-if lesson offered as a download.
    DOWNLOADING_LESSON: "downloading the what-if as the lesson {0}: open it with the Open button" => "what-if をレッスン {0} としてダウンロード中: 「開く」ボタンで開けます";
    /// Saving a what-if as a lesson failed.
    SAVE_LESSON_FAILED: "could not save the what-if as a lesson: {0}" => "what-if をレッスンとして保存できませんでした: {0}";
    /// A link made to share the what-if.
    SHARED: "link to this what-if copied: {0}" => "この what-if へのリンクをコピーしました: {0}";
    /// A link cannot name a lesson that is not bundled.
    SHARE_NOT_BUNDLED: "a link opens bundled lessons only; save this what-if as a lesson instead (Ctrl+L)" => "リンクで開けるのは同梱のレッスンだけです。代わりにレッスンとして保存してください (Ctrl+L)";
    /// A link that does not open.
    LINK_BAD: "the link does not open: {0}" => "リンクを開けません: {0}";
    /// The web page's Open button.
    WEB_OPEN: "Open replay or lesson…" => "リプレイかレッスンを開く…";
    /// The Open button's tip.
    WEB_OPEN_TIP: "Open a replay (.fsr) or a lesson (.toml), or two to compare side by side — Ctrl+O" => "リプレイ (.fsr) かレッスン (.toml) を開く (2 つなら並べて比較) — Ctrl+O";
    /// The web page's Download button.
    WEB_SAVE: "Download replay" => "リプレイをダウンロード";
    /// The Download button's tip.
    WEB_SAVE_TIP: "Download the session as a replay (.fsr) — Ctrl+S" => "この実行をリプレイ (.fsr) としてダウンロード — Ctrl+S";
    /// The web page's Save-as-lesson button.
    WEB_SAVE_LESSON: "Save as lesson" => "レッスンとして保存";
    /// Its tooltip.
    WEB_SAVE_LESSON_TIP: "Download this what-if (parameters and map as changed) as a lesson (.toml) — Ctrl+L" => "この what-if (変えたパラメータと地図) をレッスン (.toml) としてダウンロード — Ctrl+L";
    /// The web page's Share button.
    WEB_SHARE: "Share link" => "リンクを共有";
    /// Its tooltip.
    WEB_SHARE_TIP: "Copy a link that reopens this what-if" => "この what-if を開き直すリンクをコピー";
    /// The web page's hint.
    WEB_HINT: "or drop a file on the page (two: side by side) · H for keys · Esc back to the lessons" => "またはファイルをページにドロップ (2 つなら並べて比較) · H でキー一覧 · Esc でレッスン一覧へ";
    /// A replay cannot be changed.
    REPLAY_FIXED: "a replay cannot be changed; open its lesson to try things" => "リプレイは変更できません。試すときはそのレッスンを開いてください";
    /// A dropped file without a name.
    DROPPED_FILE: "dropped file" => "ドロップしたファイル";
    /// A dropped file that could not be read.
    DROPPED_UNREADABLE: "{0}: the dropped file could not be read" => "{0}: ドロップしたファイルを読めませんでした";
    /// The page's address asks for a language no lesson has.
    WEB_NO_LANG: "the address asks for narration in `{0}`; the lessons are narrated in English{1}" => "アドレスは `{0}` の解説を求めていますが、レッスンの解説は英語{1} です";
    /// The page's address asks for an unknown lesson.
    WEB_NO_LESSON: "the address asks for lesson `{0}`, which is not bundled; pick one below" => "アドレスのレッスン `{0}` は収録されていません。下から選んでください";
    /// The page's Download button with nothing open.
    WEB_SAVE_NOTHING: "Download replay records the lesson or replay being watched: open one first" => "「リプレイをダウンロード」は見ているレッスンかリプレイを記録します。先に開いてください";
    /// A number a hair under a whole one.
    JUST_UNDER: "just under {0}" => "{0} をわずかに下回る";
    /// A number a hair over a whole one.
    JUST_OVER: "just over {0}" => "{0} をわずかに超える";
    /// A pane's state hash.
    PANE_HASH: "hash {0}" => "ハッシュ {0}";
    /// The cells a chaser walked.
    PANE_WALKED: "{0} walked {1}" => "{0} は {1} 歩";
    /// The default name of a boid.
    NAME_BOID: "boid {0}" => "{0} 番";
    /// The default name of a Game Programming Gems fish.
    NAME_FISH: "fish {0}" => "魚 {0}";
    /// The default name of an obstacle.
    NAME_OBSTACLE: "obstacle {0}" => "障害物 {0}";
    /// The default name of a pane.
    NAME_PANE: "variant {0}" => "変化 {0}";
    /// The default name of a search.
    NAME_SEARCH: "search {0}" => "探索 {0}";
    /// The default name of anything else.
    NAME_OTHER: "{0} {1}" => "{0} {1}";
    /// Overlay: the boids.
    OV_BOIDS: "boids" => "個体";
    /// Overlay: velocity arrows.
    OV_VELOCITY: "velocity" => "速度";
    /// Overlay: the view radius.
    OV_VIEW_RADIUS: "view radius" => "見える距離";
    /// Overlay: the field of view.
    OV_FOV: "field of view" => "視野角";
    /// Overlay: the mates seen.
    OV_NEIGHBOURS: "mates seen" => "見えた仲間";
    /// Overlay: the nearest mate.
    OV_NEAREST: "nearest mate" => "最も近い仲間";
    /// Overlay and rule: separation.
    OV_SEPARATION: "separation" => "分離";
    /// Overlay and rule: alignment.
    OV_ALIGNMENT: "alignment" => "整列";
    /// Overlay and rule: cohesion.
    OV_COHESION: "cohesion" => "結合";
    /// Overlay and rule: obstacle avoidance.
    OV_OBSTACLE: "obstacle avoidance" => "障害物回避";
    /// Overlay and rule: cruising.
    OV_CRUISING: "cruising" => "巡航";
    /// Overlay: the obstacle feelers.
    OV_FEELERS: "feelers" => "触角";
    /// Overlay: the wall boids.
    OV_WALL_BOIDS: "wall boids" => "壁ボイド";
    /// Overlay: the clamps.
    OV_CLAMPS: "clamps" => "クランプ";
    /// Overlay and sum: the steering.
    OV_STEERING: "steering" => "操舵";
    /// Overlay: the neighbour grid.
    OV_GRID: "grid" => "グリッド";
    /// Overlay: trails.
    OV_TRAILS: "trails" => "軌跡";
    /// Overlay: a fish's attitude.
    OV_ATTITUDE: "attitude" => "姿勢";
    /// Overlay: heights.
    OV_HEIGHTS: "heights" => "高さ";
    /// Overlay: walls.
    OV_WALLS: "walls" => "壁";
    /// Overlay: cliffs.
    OV_CLIFFS: "cliffs" => "崖";
    /// Overlay: open cells.
    OV_OPEN: "open cells" => "オープンのセル";
    /// Overlay: closed cells.
    OV_CLOSED: "closed cells" => "クローズドのセル";
    /// Overlay: g.
    OV_G: "g, the cost so far" => "g (ここまでのコスト)";
    /// Overlay: h.
    OV_H: "h, the estimate" => "h (残りの見積もり)";
    /// Overlay: f.
    OV_F: "f = g + h, the score" => "f = g + h (評価値)";
    /// Overlay: parents.
    OV_PARENTS: "parents" => "親へのリンク";
    /// Overlay: the current cell.
    OV_CURRENT: "the cell expanded" => "展開中のセル";
    /// Overlay: the open list.
    OV_OPEN_LIST: "open list" => "オープンリスト";
    /// Overlay: the path.
    OV_PATH: "path" => "経路";
    /// Overlay: move costs.
    OV_COSTS: "move costs" => "移動コスト";
    /// Overlay: expansion counts.
    OV_EXPANSIONS: "expansion counts" => "展開の回数";
    /// Overlay: the ideal line.
    OV_IDEAL_LINE: "ideal line" => "理想の直線";
    /// Overlay: the plan.
    OV_PLAN: "planned cells" => "計画したセル";
    /// Overlay: cells walked.
    OV_WALKED: "cells walked" => "歩いたセル";
    /// Overlay: the error table.
    OV_ERROR_TABLE: "error-term table" => "誤差項の表";
    /// Overlay: the formula.
    OV_FORMULA: "formula" => "式";
    /// Overlay: sight.
    OV_SIGHT: "sight line" => "視線";
    /// Overlay: sight back.
    OV_SIGHT_BACK: "sight back" => "逆向きの視線";
    /// Overlay: Bresenham's decision for the coming step.
    OV_DECISION: "the decision: the line against j + ½" => "判定: 直線と j + ½ の境目";
    /// Overlay: the side view of a sight line.
    OV_PROFILE: "side view of the sight line" => "視線を横から見た図";
    /// Two runs compared: a pane's title (`a · run.fsr`).
    COMPARE_PANE: "{0} · {1}" => "{0} · {1}";
    /// Two runs compared: a variant pane's title.
    COMPARE_PANE_VARIANT: "{0} · {1} · {2}" => "{0} · {1} · {2}";
    /// Two runs compared: the side panel's heading.
    COMPARE_TITLE: "a and b" => "a と b";
    /// Two runs compared: no common tick differs.
    COMPARE_SAME: "identical: every common tick's state hash matches" => "同一: 共通するどのティックも状態ハッシュが一致";
    /// Two runs compared: one run is longer.
    COMPARE_LONGER: "a ends at tick {0}, b at tick {1}" => "a はティック {0}、b はティック {1} で終わる";
    /// Two runs compared: the first divergence, and the key.
    COMPARE_FIRST: "first divergence: tick {0} (D goes there, D again to the next entity that parts)" => "最初の分岐: ティック {0} (D でそこへ、もう一度 D で次に分かれる個体へ)";
    /// Two runs compared: the tick shown is before the divergence.
    COMPARE_NOW_SAME: "tick {0}: the same in a and b" => "ティック {0}: a と b は同じ";
    /// Two runs compared: how much differs at the tick shown.
    COMPARE_NOW: "tick {0}: {1} fields differ ({2} entities)" => "ティック {0}: {1} 項目が違う ({2} 個)";
    /// Two runs compared: how many boids stand or move apart at the tick
    /// shown.
    COMPARE_NOW_BOIDS: "tick {0}: {1} boids stand or move apart (the first three in purple squares in both panes)" => "ティック {0}: {1} 個体の位置か速度が違う (最初の 3 個体を両方の画面で紫の四角で囲む)";
    /// Two runs compared: how many fields differ at the tick shown, of a
    /// state that names no entities (a user's sim).
    COMPARE_NOW_FIELDS: "tick {0}: {1} fields differ" => "ティック {0}: {1} 項目が違う";
    /// Two runs compared: the legend of the mark on the boids that differ.
    COMPARE_LEGEND: "differs from the other run (purple square)" => "もう一方の実行と違う (紫の四角)";
    /// Two runs compared: a field's two values.
    COMPARE_FIELD: "{0}: a {1} · b {2}" => "{0}: a は {1} · b は {2}";
    /// Two runs compared: more fields differ than are listed.
    COMPARE_MORE: "… and {0} more fields" => "… ほか {0} 項目";
    /// Two runs compared: the drift of a flock.
    COMPARE_DRIFT_DISTANCE: "drift: a boid is up to {0} from itself in the other run (largest {1}, plotted on the timeline)" => "ずれ: 個体はもう一方の実行の自分から最大 {0} 離れている (最大 {1}、タイムラインに表示)";
    /// Two runs compared: the drift of another sim.
    COMPARE_DRIFT_FIELDS: "drift: {0} fields differ (largest {1}, plotted on the timeline)" => "ずれ: {0} 項目が違う (最大 {1}、タイムラインに表示)";
    /// Two runs compared: the cause's heading.
    COMPARE_CAUSE: "why they part at tick {0}: {1}" => "ティック {0} で分かれる理由: {1}";
    /// Two runs compared: a parameter in force that differs.
    COMPARE_PARAM: "parameter {0}: a {1} · b {2}" => "パラメータ {0}: a {1} · b {2}";
    /// Two runs compared: the cause could not be found.
    COMPARE_NO_CAUSE: "the cause could not be traced: {0}" => "原因をたどれません: {0}";
    /// A clip of the beat was saved.
    SAVED_CLIP: "saved the beat as the clip {0} ({1} frames)" => "ビートをクリップ {0} として保存しました ({1} コマ)";
    /// Help: the clip key (desktop).
    HELP_CLIP: "G save the current beat as a GIF clip for slides (Esc stops)" => "G 今のビートをスライド用の GIF クリップとして保存 (Esc で中止)";
    /// Help: the comparison's key.
    HELP_COMPARE: "D first divergence, then each next entity that parts" => "D 最初の分岐、続けて次に分かれる個体";

}

/// An overlay's name in words (`view_radius` → "view radius"); an unknown
/// one as it is written.
pub fn overlay_name(lang: super::Lang, id: &str) -> String {
    let m = match id {
        "boids" => &OV_BOIDS,
        "velocity" => &OV_VELOCITY,
        "view_radius" => &OV_VIEW_RADIUS,
        "fov" => &OV_FOV,
        "neighbours" => &OV_NEIGHBOURS,
        "nearest" => &OV_NEAREST,
        "separation" => &OV_SEPARATION,
        "alignment" => &OV_ALIGNMENT,
        "cohesion" => &OV_COHESION,
        "obstacle" => &OV_OBSTACLE,
        "cruising" => &OV_CRUISING,
        "feelers" => &OV_FEELERS,
        "wall_boids" => &OV_WALL_BOIDS,
        "clamps" => &OV_CLAMPS,
        "steering" => &OV_STEERING,
        "grid" => &OV_GRID,
        "trails" => &OV_TRAILS,
        "attitude" => &OV_ATTITUDE,
        "heights" => &OV_HEIGHTS,
        "walls" => &OV_WALLS,
        "cliffs" => &OV_CLIFFS,
        "open" => &OV_OPEN,
        "closed" => &OV_CLOSED,
        "g" => &OV_G,
        "h" => &OV_H,
        "f" => &OV_F,
        "parents" => &OV_PARENTS,
        "current" => &OV_CURRENT,
        "open_list" => &OV_OPEN_LIST,
        "path" => &OV_PATH,
        "costs" => &OV_COSTS,
        "expansions" => &OV_EXPANSIONS,
        "ideal_line" => &OV_IDEAL_LINE,
        "plan" => &OV_PLAN,
        "walked" => &OV_WALKED,
        "error_table" => &OV_ERROR_TABLE,
        "formula" => &OV_FORMULA,
        "sight" => &OV_SIGHT,
        "sight_back" => &OV_SIGHT_BACK,
        "profile" => &OV_PROFILE,
        "decision" => &OV_DECISION,
        _ => return id.to_owned(),
    };
    m.text(lang).to_owned()
}

/// A sim's name in words.
pub fn sim_name(lang: super::Lang, sim: &str) -> String {
    match sim {
        "flock" => SIM_FLOCK.text(lang).to_owned(),
        "path" => SIM_PATH.text(lang).to_owned(),
        "line" => SIM_LINE.text(lang).to_owned(),
        _ => sim.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::Lang;

    /// Every overlay a lesson can name has words in the catalogue.
    #[test]
    fn every_overlay_has_a_name() {
        let all = crate::lesson::FLOCK_OVERLAYS
            .iter()
            .chain(crate::lesson::PATH_OVERLAYS)
            .chain(crate::lesson::LINE_OVERLAYS);
        for id in all {
            let ja = super::overlay_name(Lang::Ja, id);
            assert!(
                ja.chars().any(super::super::is_japanese) || ja.contains('='),
                "{id}: {ja}"
            );
        }
    }
}
