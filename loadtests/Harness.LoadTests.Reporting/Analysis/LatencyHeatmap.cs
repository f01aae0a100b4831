using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>
/// Successful requests counted per (time column, latency bin), from each second's histogram: the latency heatmap.
/// Bins are logarithmic, <see cref="BinsPerDoubling"/> per doubling of latency (edges 2^(k/4) µs); a column is
/// <see cref="SecondsPerColumn"/> series seconds, so a long soak stays at most <see cref="MaxColumns"/> wide.
/// </summary>
/// <param name="FirstBin">k of the lowest edge, 2^(k/4) µs.</param>
/// <param name="Bins">Bins in the latency range; edge i is 2^((FirstBin + i)/4) µs.</param>
/// <param name="Cells">Per series (in the order given), its non-empty cells as (column, bin, count).</param>
internal sealed record LatencyHeatmap(int FirstBin, int Bins, int SecondsPerColumn, IReadOnlyList<IReadOnlyList<(int Column, int Bin, long Count)>> Cells)
{
    public const int BinsPerDoubling = 4;
    public const int MaxColumns = 600;

    /// <summary>Edge <paramref name="i"/> in ms: 2^((FirstBin + i) ÷ 4) µs ÷ 1000.</summary>
    public double EdgeMs(int i) => Math.Pow(2, (FirstBin + i) / (double)BinsPerDoubling) / 1000;

    /// <summary>
    /// One heatmap for several timelines on one shared latency range and column width (a group's series, so their
    /// heatmaps compare). Every recorded second counts, warm-up included, as on the other time charts.
    /// </summary>
    public static LatencyHeatmap Of(IReadOnlyList<IReadOnlyList<SecondSample>> timelines)
    {
        ArgumentNullException.ThrowIfNull(timelines);
        var seconds = timelines.SelectMany(t => t).Where(s => s.Latency.TotalCount > 0).ToList();
        var length = timelines.Select(t => t.Count == 0 ? 0 : t.Max(s => s.Second) + 1).DefaultIfEmpty(0).Max();
        var perColumn = Math.Max(1, (int)Math.Ceiling(length / (double)MaxColumns));
        if (seconds.Count == 0)
        {
            return new LatencyHeatmap(0, 0, perColumn, [.. timelines.Select(_ => Array.Empty<(int, int, long)>())]);
        }

        var first = BinOf(seconds.Min(s => s.Latency.MinMicroseconds));
        var last = BinOf(seconds.Max(s => s.Latency.MaxMicroseconds));
        var cells = new List<IReadOnlyList<(int, int, long)>>();
        foreach (var timeline in timelines)
        {
            var counts = new SortedDictionary<(int Column, int Bin), long>();
            foreach (var sample in timeline.Where(s => s.Latency.TotalCount > 0))
            {
                foreach (var (lowest, count) in sample.Latency.Buckets())
                {
                    var key = (sample.Second / perColumn, Math.Clamp(BinOf(lowest), first, last) - first);
                    counts[key] = counts.GetValueOrDefault(key) + count;
                }
            }

            cells.Add([.. counts.Select(c => (c.Key.Column, c.Key.Bin, c.Value))]);
        }

        return new LatencyHeatmap(first, last - first + 1, perColumn, cells);
    }

    /// <summary>k such that 2^(k/4) ≤ µs &lt; 2^((k+1)/4); values below 1 µs go to k = 0.</summary>
    public static int BinOf(long microseconds) =>
        microseconds <= 1 ? 0 : (int)Math.Floor(Math.Log2(microseconds) * BinsPerDoubling + 1e-9);
}
