//! Server-rendered SVG charts: horizontal stacked bars against a capacity line, and a line
//! of memory against batch size. Geometry is computed here; `templates/charts/` draws it.
//! Labels go into an HTML legend beside the picture (and `<title>`s for pointers), so text
//! never overlaps inside the SVG and screen readers get a list.

use askama::Template;

use super::Ui;

const BAR_WIDTH: f64 = 640.0;
const BAR_HEIGHT: f64 = 30.0;
const BAR_GAP: f64 = 12.0;
const BAR_TOP: f64 = 8.0;

pub struct Segment {
    pub x: String,
    pub width: String,
    pub class: String,
    pub title: String,
}

pub struct BarRow {
    pub y: String,
    pub segments: Vec<Segment>,
}

pub struct Marker {
    pub x: String,
}

pub struct LegendItem {
    pub class: String,
    pub label: String,
    pub value: String,
}

#[derive(Template)]
#[template(path = "charts/bar.svg", escape = "html")]
pub struct BarChart {
    pub description: String,
    pub width: String,
    pub height: String,
    pub rows: Vec<BarRow>,
    pub frame_width: String,
    pub markers: Vec<Marker>,
    pub marker_top: String,
    pub marker_bottom: String,
}

/// One piece of a bar: its size, a CSS class for its colour, and its name.
pub struct Piece {
    pub bytes: u64,
    pub class: String,
    pub label: String,
}

/// A chart and its legend, ready for a template.
pub struct Figure {
    pub svg: String,
    pub legend: Vec<LegendItem>,
    pub caption: String,
}

fn px(x: f64) -> String {
    format!("{x:.1}")
}

/// Rows of pieces (each row may start at an offset), drawn to one scale, with a vertical
/// line at `capacity`. The scale covers the capacity and the longest row.
pub fn stacked_bars(
    ui: &Ui,
    description: String,
    caption: String,
    rows: &[(u64, Vec<Piece>)],
    capacity: Option<(u64, String)>,
) -> Figure {
    let longest = rows
        .iter()
        .map(|(offset, pieces)| offset + pieces.iter().map(|p| p.bytes).sum::<u64>())
        .max()
        .unwrap_or(0);
    let scale_max = longest.max(capacity.as_ref().map_or(0, |c| c.0)).max(1) as f64;
    let x_of = |bytes: u64| bytes as f64 / scale_max * BAR_WIDTH;

    let mut legend = Vec::new();
    let bar_rows: Vec<BarRow> = rows
        .iter()
        .enumerate()
        .map(|(i, (offset, pieces))| {
            let y = BAR_TOP + i as f64 * (BAR_HEIGHT + BAR_GAP);
            let mut start = *offset;
            let segments = pieces
                .iter()
                .filter(|p| p.bytes > 0)
                .map(|p| {
                    let value = ui.bytes(p.bytes);
                    // Rows that repeat a piece (identical GPUs) name it once.
                    if !legend.iter().any(|l: &LegendItem| {
                        l.class == p.class && l.label == p.label && l.value == value
                    }) {
                        legend.push(LegendItem {
                            class: p.class.clone(),
                            label: p.label.clone(),
                            value: value.clone(),
                        });
                    }
                    let segment = Segment {
                        x: px(x_of(start)),
                        width: px(x_of(p.bytes).max(0.5)),
                        class: p.class.clone(),
                        title: ui.t2("label-value", "label", &p.label, "value", &value),
                    };
                    start += p.bytes;
                    segment
                })
                .collect();
            BarRow { y: px(y), segments }
        })
        .collect();

    let bars_bottom = BAR_TOP + rows.len() as f64 * (BAR_HEIGHT + BAR_GAP) - BAR_GAP;
    // The capacity is a dashed line in the picture and a named entry of the legend: text
    // inside the SVG would shrink to nothing on a phone.
    let markers = match capacity {
        Some((bytes, label)) => {
            legend.push(LegendItem {
                class: "capacity-key".to_owned(),
                label,
                value: ui.bytes(bytes),
            });
            vec![Marker { x: px(x_of(bytes)) }]
        }
        None => Vec::new(),
    };
    let height = bars_bottom + 8.0;
    let svg = BarChart {
        description,
        width: px(BAR_WIDTH + 2.0),
        height: px(height),
        rows: bar_rows,
        frame_width: px(BAR_WIDTH),
        markers,
        marker_top: px(2.0),
        marker_bottom: px(bars_bottom + 6.0),
    }
    .render()
    .unwrap_or_default();
    Figure {
        svg,
        legend,
        caption,
    }
}

pub struct Point {
    pub x: String,
    pub y: String,
    pub class: &'static str,
    pub title: String,
}

pub struct Tick {
    pub pos: String,
    pub label: String,
}

#[derive(Template)]
#[template(path = "charts/line.svg", escape = "html")]
pub struct LineChart {
    pub description: String,
    pub path: String,
    pub points: Vec<Point>,
    pub x_ticks: Vec<Tick>,
    pub y_ticks: Vec<Tick>,
    pub capacity_y: String,
    pub capacity_label: String,
    pub axis_label: String,
}

const PLOT_LEFT: f64 = 80.0;
const PLOT_RIGHT: f64 = 630.0;
const PLOT_TOP: f64 = 12.0;
const PLOT_BOTTOM: f64 = 230.0;

/// Memory (y) against batch size (x): `series` holds (batch size, bytes), in order of batch
/// size; `current` is marked. Points above `capacity` are drawn in the warning colour.
pub fn memory_by_batch(
    ui: &Ui,
    description: String,
    axis_label: String,
    series: &[(u64, u64)],
    capacity: u64,
    capacity_label: &str,
    current: u64,
) -> String {
    let x_max = series.iter().map(|p| p.0).max().unwrap_or(1).max(1) as f64;
    let top = series.iter().map(|p| p.1).max().unwrap_or(0).max(capacity);
    let y_step = nice_step(top as f64 / 4.0);
    let y_max = ((top as f64 / y_step).ceil() * y_step).max(y_step);
    let x_of = |b: u64| PLOT_LEFT + b as f64 / x_max * (PLOT_RIGHT - PLOT_LEFT);
    let y_of = |bytes: f64| PLOT_BOTTOM - bytes / y_max * (PLOT_BOTTOM - PLOT_TOP);

    let path = series
        .iter()
        .enumerate()
        .map(|(i, &(b, bytes))| {
            format!(
                "{}{} {}",
                if i == 0 { "M" } else { "L" },
                px(x_of(b)),
                px(y_of(bytes as f64))
            )
        })
        .collect::<Vec<_>>()
        .join(" ");
    let points = series
        .iter()
        .map(|&(b, bytes)| Point {
            x: px(x_of(b)),
            y: px(y_of(bytes as f64)),
            class: match (bytes > capacity, b == current) {
                (true, true) => "marker over current",
                (true, false) => "marker over",
                (false, true) => "marker current",
                (false, false) => "marker",
            },
            title: ui.t2(
                "label-value",
                "label",
                &format!("batch_size {}", ui.int(b)),
                "value",
                &ui.bytes(bytes),
            ),
        })
        .collect();
    let y_ticks = (0..)
        .map(|k| k as f64 * y_step)
        .take_while(|v| *v <= y_max + 1.0)
        .map(|v| Tick {
            pos: px(y_of(v)),
            label: tick_label(ui, v as u64, y_step),
        })
        .collect();
    // At most six labelled batch sizes, spread over the axis.
    let every = series.len().div_ceil(6).max(1);
    let x_ticks = series
        .iter()
        .enumerate()
        .filter(|(i, _)| i % every == 0 || *i + 1 == series.len())
        .map(|(_, &(b, _))| Tick {
            pos: px(x_of(b)),
            label: ui.int(b),
        })
        .collect();
    LineChart {
        description,
        path,
        points,
        x_ticks,
        y_ticks,
        capacity_y: px(y_of(capacity as f64)),
        capacity_label: format!("{capacity_label} {}", ui.bytes(capacity)),
        axis_label,
    }
    .render()
    .unwrap_or_default()
}

/// A tick of the memory axis with no more decimals than the step needs: 4 GiB, 2.5 GiB.
fn tick_label(ui: &Ui, bytes: u64, step: f64) -> String {
    let step_gib = step / f64::from(1u32 << 30);
    let decimals = if step_gib.fract() == 0.0 {
        0
    } else if (step_gib * 10.0).fract() == 0.0 {
        1
    } else {
        2
    };
    ui.gib_with(bytes, decimals)
}

/// 1, 2 or 5 times a power of two of GiB (or of smaller units): round axis steps.
fn nice_step(raw: f64) -> f64 {
    let gib = f64::from(1u32 << 30);
    let unit = if raw >= gib / 4.0 {
        gib
    } else {
        f64::from(1u32 << 20)
    };
    let r = (raw / unit).max(1e-9);
    let magnitude = 10f64.powf(r.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= r)
        .unwrap_or(10.0 * magnitude);
    step * unit
}

/// Batch sizes to plot: from 1 to a bit past both the current size and the largest that
/// fits, about a dozen points, the two named ones included.
pub fn batch_samples(current: u64, max_fit: u64) -> Vec<u64> {
    let end = (current.max(max_fit) as f64 * 1.25).ceil().max(8.0) as u64;
    let step = end.div_ceil(12).max(1);
    let mut sizes: Vec<u64> = (0..=12).map(|i| (i * step).max(1)).collect();
    sizes.push(current);
    if max_fit > 0 {
        sizes.push(max_fit);
    }
    sizes.sort_unstable();
    sizes.dedup();
    sizes
}

/// What a GPU held when an allocation failed, as a bar: PyTorch's tensors, its reserved
/// but unallocated blocks, the rest of this process, other processes, free; and below it
/// the request, starting where the free memory starts.
pub struct GpuFigures {
    pub requested: Option<u64>,
    pub total: Option<u64>,
    pub free: Option<u64>,
    pub process_in_use: Option<u64>,
    pub reserved_unallocated: Option<u64>,
    pub allocated_by_pytorch: Option<u64>,
}

pub fn gpu_picture(ui: &Ui, f: &GpuFigures) -> Option<Figure> {
    let total = f.total?;
    let free = f.free?.min(total);
    let used = total - free;
    let mut pieces = Vec::new();
    let mut accounted = 0u64;
    if let Some(process) = f.process_in_use.map(|p| p.min(used)) {
        let reserved = f.reserved_unallocated.unwrap_or(0).min(process);
        let allocated = f
            .allocated_by_pytorch
            .unwrap_or(process - reserved)
            .min(process - reserved);
        pieces.push(Piece {
            bytes: allocated,
            class: "allocated".to_owned(),
            label: ui.t("fig-allocated"),
        });
        pieces.push(Piece {
            bytes: reserved,
            class: "reserved".to_owned(),
            label: ui.t("fig-reserved-unallocated"),
        });
        pieces.push(Piece {
            bytes: process - reserved - allocated,
            class: "c8".to_owned(),
            label: ui.t("fig-process-other"),
        });
        accounted = process;
    }
    pieces.push(Piece {
        bytes: used - accounted,
        class: "others".to_owned(),
        label: ui.t(if accounted > 0 {
            "fig-others"
        } else {
            "fig-used"
        }),
    });
    pieces.push(Piece {
        bytes: free,
        class: "free".to_owned(),
        label: ui.t("fig-free"),
    });
    let mut rows = vec![(0, pieces)];
    if let Some(requested) = f.requested {
        rows.push((
            used,
            vec![Piece {
                bytes: requested,
                class: "requested".to_owned(),
                label: ui.t("fig-requested"),
            }],
        ));
    }
    Some(stacked_bars(
        ui,
        ui.t("fig-picture"),
        ui.t("fig-picture-caption"),
        &rows,
        Some((total, ui.t("fig-capacity"))),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_samples_cover_current_and_max_and_stay_short() {
        let s = batch_samples(64, 27);
        assert!(s.contains(&64) && s.contains(&27) && s.contains(&1));
        assert!(s.len() <= 15);
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        let s = batch_samples(1, 0);
        assert_eq!(s.first(), Some(&1));
    }

    #[test]
    fn axis_steps_are_round() {
        let gib = f64::from(1u32 << 30);
        assert_eq!(nice_step(2.7 * gib), 5.0 * gib);
        assert_eq!(nice_step(0.9 * gib), 1.0 * gib);
        assert_eq!(nice_step(18.0 * gib), 20.0 * gib);
    }
}
