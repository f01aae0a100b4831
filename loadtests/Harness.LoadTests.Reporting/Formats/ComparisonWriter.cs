using System.Globalization;
using System.Text;
using Harness.LoadTests.Recording;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>The files of a comparison report, as written.</summary>
internal sealed record ComparisonFiles(string Html, string Markdown);

/// <summary>What <c>harness compare</c> did: its exit code, and either why it refused or what it wrote and found.</summary>
/// <param name="Refusal">One line: why the runs cannot be judged against each other (the gate refuses); nothing was written.</param>
/// <param name="GateLines">With a gate: its verdict, then one line per regression; else empty.</param>
/// <param name="SeriesBySeries">For the console, per run after A: that run against A, series by series (<see cref="ComparisonText"/>); empty when refused.</param>
internal sealed record ComparisonOutcome(
    int ExitCode, string? Refusal, ComparisonFiles? Files, IReadOnlyList<Regression> Regressions, IReadOnlyList<string> GateLines, IReadOnlyList<string> SeriesBySeries)
{
    /// <summary>For the console: each run's gRPC ÷ SOAP (<see cref="StackText"/>); null when no run has both stacks, or when refused.</summary>
    public string? Stacks { get; init; }
}

/// <summary>What an inconclusive gate exits with (<c>--on-inconclusive</c>).</summary>
internal enum InconclusiveGate
{
    /// <summary>Its own exit code, <see cref="ComparisonWriter.ExitInconclusive"/>.</summary>
    Own,

    /// <summary>Exit 0, as a pass: for a pipeline that must not block on a run that could not tell.</summary>
    Pass,

    /// <summary>Exit 1, as a failure: for a pipeline that must not let through what it could not clear.</summary>
    Fail,
}

/// <summary>Writes the comparison report (docs/report.md, "Comparison report") and applies the regression gate.</summary>
internal static class ComparisonWriter
{
    public const int ExitOk = 0;

    /// <summary>A compared series' mean or p99 got worse than the gate allows, beyond its noise.</summary>
    public const int ExitRegression = 1;

    /// <summary>The gate refused: the runs differ in profile, time scale or operation parameters, or share no series.</summary>
    public const int ExitRefused = 2;

    /// <summary>The gate could not tell: no figure is shown worse than the limit, but some could be (<c>--on-inconclusive</c> changes it).</summary>
    public const int ExitInconclusive = 7;

    public const string HtmlFileName = "index.html";
    public const string MarkdownFileName = "comparison.md";

    private static readonly UTF8Encoding Utf8NoBom = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>Beside RUN_B: <c>&lt;RUN_B's parent&gt;/compare-&lt;A&gt;-vs-&lt;B&gt;[-vs-&lt;C&gt;…]</c>.</summary>
    public static string DefaultDirectory(string runBFolder, IReadOnlyList<RunData> runs)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(runBFolder);
        ArgumentNullException.ThrowIfNull(runs);
        var parent = Path.GetDirectoryName(Path.TrimEndingDirectorySeparator(Path.GetFullPath(runBFolder))) ?? ".";
        return Path.Combine(parent, "compare-" + string.Join("-vs-", runs.Select(r => r.Manifest.RunId)));
    }

    /// <summary><c>5%</c>, <c>5 %</c> or <c>5</c> → 5.</summary>
    /// <exception cref="FormatException">Not a percentage of 0 or more; the message says what is expected.</exception>
    public static double ParsePercent(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var number = text.Trim().TrimEnd('%').Trim();
        if (!double.TryParse(number, NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var percent) || number.Length == 0)
        {
            throw new FormatException($"--fail-on-regression '{text}' is not a percentage; write e.g. 5% (how much worse the mean or p99 may get, beyond the noise).");
        }

        return percent;
    }

    /// <summary>Writes <c>index.html</c> and <c>comparison.md</c> under <paramref name="directory"/> (created if missing).</summary>
    public static ComparisonFiles WriteAll(MultiRunComparison comparison, string directory, double? gatePercent = null, IReadOnlyList<string>? warnings = null)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        Directory.CreateDirectory(directory);
        var markdown = Path.Combine(directory, MarkdownFileName);
        File.WriteAllText(markdown, ComparisonMarkdown.Render(comparison, gatePercent), Utf8NoBom);
        var html = Path.Combine(directory, HtmlFileName);
        File.WriteAllText(html, ComparisonHtml.Render(comparison, gatePercent, warnings), Utf8NoBom);
        return new ComparisonFiles(html, markdown);
    }

    /// <summary>
    /// <c>harness compare</c>: with a gate (<paramref name="failOnRegressionPercent"/>), refuses runs that cannot be judged
    /// against each other (exit 2, nothing written); otherwise writes the reports, then exits 1 when a compared series'
    /// mean or p99 got worse than in run A by more than the limit beyond its noise, else 0.
    /// </summary>
    /// <param name="onInconclusive">What an inconclusive gate exits with: its own code (7), or that of a pass or a failure.</param>
    public static ComparisonOutcome Run(
        IReadOnlyList<RunData> runs, string directory, double? failOnRegressionPercent = null, IReadOnlyList<string>? warnings = null,
        InconclusiveGate onInconclusive = InconclusiveGate.Own)
    {
        var comparison = MultiRunComparison.Build(runs);
        if (failOnRegressionPercent is not null && comparison.Refusal() is { } refusal)
        {
            return new ComparisonOutcome(ExitRefused, "cannot judge a regression: " + refusal, null, [], [], []);
        }

        var files = WriteAll(comparison, directory, failOnRegressionPercent, warnings);
        var seriesBySeries = comparison.Pairings.Select(ComparisonText.ToText).ToList();
        var stacks = StackText.ToText(comparison);
        if (failOnRegressionPercent is not { } gate)
        {
            return new ComparisonOutcome(ExitOk, null, files, [], [], seriesBySeries) { Stacks = stacks };
        }

        var result = comparison.Gate(gate);
        List<string> lines = ["Regression gate: " + ComparisonMarkdown.GateText(result, gate).Replace("**", string.Empty, StringComparison.Ordinal)];
        lines.AddRange(ComparisonMarkdown.GateLines(result).Select(l => "  " + l));
        var exit = result.JudgesNothing ? ExitRefused : result.Outcome switch
        {
            GateOutcome.Fail => ExitRegression,
            GateOutcome.Pass => ExitOk,
            _ => onInconclusive switch { InconclusiveGate.Pass => ExitOk, InconclusiveGate.Fail => ExitRegression, _ => ExitInconclusive },
        };
        return new ComparisonOutcome(exit, null, files, result.Regressions, lines, seriesBySeries) { Stacks = stacks };
    }
}
