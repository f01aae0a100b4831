using System.CommandLine;
using Harness.LoadTests.Common;
using Harness.LoadTests.Distributed;
using Harness.LoadTests.Profiles;
using Harness.LoadTests.Reporting.Analysis;
using Spectre.Console;

namespace Harness.LoadTests.Commands;

/// <summary>
/// <c>harness merge RUN_DIR... --output DIR</c>: agents' run folders copied by hand joined into one run folder
/// (<see cref="AgentJoin"/>), as the coordinator joins the runs its agents upload.
/// </summary>
internal sealed class MergeCommand
{
    private static readonly TimeSpan MaxWait = TimeSpan.FromDays(7);

    private readonly Argument<string[]> _runs = new("RUN_DIR")
    {
        Description = "The agents' run folders (agent-I-of-N), or a folder holding them (the agents' --output).",
        Arity = ArgumentArity.OneOrMore,
    };

    private readonly Option<string> _output = new("--output") { Description = "The merged run's folder (new or empty); the report is written in it.", Required = true };

    private readonly Option<string?> _wait = new("--wait") { Description = "Wait at most this long (e.g. 30m) for every agent's done marker before merging; without it, merge what is there." };

    private readonly Option<string[]> _assertions = new("--assert") { Description = "A threshold such as p99<4500ms or errors<1%, judged on the merged run; the exit code is 1 when one fails. Repeatable." };

    public static Command Create(IAnsiConsole console)
    {
        var merge = new MergeCommand();
        var command = new Command(
            "merge",
            "Merge the runs of the agents of one distributed run (harness run --agent) into one run folder, exactly, and write its report.")
        {
            merge._runs, merge._output, merge._wait, merge._assertions,
        };
        command.SetAction((parse, ct) => merge.RunAsync(console, parse, ct));
        return command;
    }

    private async Task<int> RunAsync(IAnsiConsole console, ParseResult parse, CancellationToken cancellationToken)
    {
        var paths = parse.GetValue(_runs)!;
        var output = Path.GetFullPath(parse.GetValue(_output)!);
        IReadOnlyList<Threshold> thresholds;
        IReadOnlyList<string> folders;
        try
        {
            thresholds = [.. (parse.GetValue(_assertions) ?? []).Select(Threshold.Parse)];
            if (Directory.Exists(output) && Directory.EnumerateFileSystemEntries(output).Any())
            {
                throw new UsageException($"--output {output} is not empty; the merged run needs a folder of its own.");
            }

            if (parse.GetValue(_wait) is { } waitText)
            {
                if (!DurationJsonConverter.TryParse(waitText, out var wait) || wait > MaxWait)
                {
                    throw new UsageException($"--wait '{waitText}' must be a duration up to 7 days, e.g. 90s, 30m or 4h.");
                }

                console.MarkupLineInterpolated($"[grey]waiting at most {DurationJsonConverter.Format(wait)} for every agent's done marker[/]");
                await AgentRuns.WaitForDoneAsync(paths, wait, cancellationToken);
            }

            folders = AgentRuns.Find(paths);
        }
        catch (AgentsMissingException ex)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            return ExitCodes.AgentsMissing;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            console.MarkupLine("[yellow]Interrupted; nothing was merged.[/]");
            return ExitCodes.Interrupted;
        }
        catch (Exception ex) when (ex is UsageException or FormatException or IOException or UnauthorizedAccessException)
        {
            console.MarkupLineInterpolated($"[red]error:[/] {ex.Message}");
            return ExitCodes.Usage;
        }

        return AgentJoin.Join(console, folders, output, thresholds);
    }
}
