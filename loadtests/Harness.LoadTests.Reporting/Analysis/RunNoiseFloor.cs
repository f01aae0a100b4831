namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>A mode's ratio to its group's baseline that its family judged better or worse: its interval lies wholly beyond ±5 %.</summary>
internal sealed record DifferenceBeyondNoise(ModeComparisonGroup Group, ModeSummary Mode, ModeFigure Figure, ModeRatio Ratio);

/// <summary>
/// The run's own noise floor, measured by its repetitions: how far two processes of one mode were apart on the mean
/// and the p99 (the noise pooled over every repeated mode of every group), and which differences between modes its
/// intervals put beyond it. Null noise means no mode was repeated, so no difference could be told from noise.
/// </summary>
internal sealed record RunNoiseFloor(RepetitionNoise? Mean, RepetitionNoise? P99, IReadOnlyList<DifferenceBeyondNoise> Beyond)
{
    /// <summary>The figures a difference is listed on, as the glance shows them.</summary>
    public static IReadOnlyList<ModeFigure> Figures => ReportVerdicts.ModeFiguresJudged;

    public bool HasRepetitions => Mean is not null || P99 is not null;

    public static RunNoiseFloor Of(IReadOnlyList<ModeComparisonGroup> groups)
    {
        ArgumentNullException.ThrowIfNull(groups);
        var repeated = groups.SelectMany(g => g.Modes).Where(m => m.IsRepeated).ToList();
        var beyond = (
            from g in groups
            from m in g.Modes
            from f in Figures
            let ratio = m.RatioOf(f)
            where ratio.Verdict is RatioVerdict.Better or RatioVerdict.Worse
            select new DifferenceBeyondNoise(g, m, f, ratio)).ToList();
        return new RunNoiseFloor(
            RepetitionNoise.Pool(repeated.Select(m => m.ValuesOf(ModeFigure.Mean))),
            RepetitionNoise.Pool(repeated.Select(m => m.ValuesOf(ModeFigure.P99))),
            beyond);
    }
}
