using System.Globalization;
using System.Text;
using Harness.LoadTests.Reporting.Analysis;

namespace Harness.LoadTests.Reporting.Formats;

/// <summary>gRPC against SOAP as text: the table of summary.md and of the console (<see cref="StackComparison"/>).</summary>
internal static class StackText
{
    public const string Title = "gRPC ÷ SOAP";

    /// <summary>What the ratios are and how to read them, one paragraph.</summary>
    public const string Lead =
        "Each operation in each mode that ran on both stacks: gRPC's figure ÷ SOAP's (below 1: gRPC lower). "
        + "CPU ms/req is the service's CPU time per request (its process_cpu_seconds_total), KB/call in flight its peak working set ÷ peak users (closed model). "
        + "With repetitions the ratio is of the geometric means, with its interval paired by round (both stacks ran in each round against the same services); "
        + "mean, p99 and req/s carry the report's family verdicts (better, worse, no difference beyond ±5 %, or inconclusive), the other figures their 95 % interval. "
        + "A ratio of two single runs has no interval and no verdict: \"single run\".";

    /// <summary>The table for the console, or null when no operation × mode ran on both stacks.</summary>
    /// <param name="title">What precedes the table (default <see cref="Title"/>).</param>
    public static string? ToText(IReadOnlyList<StackPair> pairs, string title = Title)
    {
        ArgumentNullException.ThrowIfNull(pairs);
        return pairs.Count == 0 ? null : $"{title}:{Environment.NewLine}{Table(pairs).ToText()}";
    }

    /// <summary><c>harness compare</c>'s console: each run's gRPC ÷ SOAP, or null when no run has both stacks.</summary>
    public static string? ToText(MultiRunComparison comparison)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        var tables = comparison.Stacks.Select((pairs, i) => ToText(pairs, RunTitle(comparison, i))).OfType<string>().ToList();
        return tables.Count == 0 ? null : string.Join(Environment.NewLine, tables);
    }

    /// <summary>The section of summary.md; nothing when no operation × mode ran on both stacks.</summary>
    /// <param name="title">The section's heading (default <see cref="Title"/>).</param>
    public static void AppendMarkdown(StringBuilder md, IReadOnlyList<StackPair> pairs, string title = Title)
    {
        ArgumentNullException.ThrowIfNull(md);
        ArgumentNullException.ThrowIfNull(pairs);
        if (pairs.Count == 0)
        {
            return;
        }

        md.AppendLine();
        md.AppendLine(CultureInfo.InvariantCulture, $"## {title}");
        md.AppendLine();
        md.AppendLine(Lead);
        md.AppendLine();
        md.Append(Table(pairs).ToMarkdown());
    }

    /// <summary>The heading of one compared run's table: <c>gRPC ÷ SOAP in run B (20261125-101500)</c>.</summary>
    public static string RunTitle(MultiRunComparison comparison, int run)
    {
        ArgumentNullException.ThrowIfNull(comparison);
        return $"{Title} in run {ComparisonModel.LetterOf(run)} ({comparison.Runs[run].Manifest.RunId})";
    }

    /// <summary>A ratio in words: <c>0.82× (0.74–0.91) better</c>, <c>1.02× (0.90–1.31) inconclusive: between −10 % and +31 %</c>, <c>1.10× single run</c>.</summary>
    public static string RatioText(StackRatio ratio)
    {
        ArgumentNullException.ThrowIfNull(ratio);
        return FigureText.RatioWithVerdict(ratio.AsModeRatio());
    }

    /// <summary>How many series each stack has: <c>2 + 2</c>.</summary>
    public static string Runs(StackPair pair)
    {
        ArgumentNullException.ThrowIfNull(pair);
        return $"{pair.Grpc.Count.ToString(CultureInfo.InvariantCulture)} + {pair.Soap.Count.ToString(CultureInfo.InvariantCulture)}";
    }

    private static TextTable Table(IReadOnlyList<StackPair> pairs)
    {
        var table = new TextTable(["operation · mode", ">runs gRPC + SOAP", .. StackFigures.All.Select(f => ">" + StackFigures.Name(f))]);
        foreach (var pair in pairs)
        {
            table.Add([pair.Title, Runs(pair), .. StackFigures.All.Select(f => RatioText(pair.Ratios[f]))]);
        }

        return table;
    }
}
