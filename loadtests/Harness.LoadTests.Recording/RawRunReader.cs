using System.Text.Json;

namespace Harness.LoadTests.Recording;

/// <summary>Reads a run folder written by <see cref="RawRunWriter"/> (docs/raw-format.md) back into a <see cref="RunData"/>.</summary>
public static class RawRunReader
{
    /// <exception cref="RawRunFormatException">A file is corrupt, or of a format version this reader does not know.</exception>
    /// <exception cref="FileNotFoundException">The folder holds no <c>run.json</c>.</exception>
    public static RunData Read(string runDirectory) => Read(runDirectory, out _);

    /// <param name="runDirectory">The run folder.</param>
    /// <param name="warnings">
    /// What was tolerated, each naming its file: a cut-off last line of a series skipped (a crash while appending
    /// leaves one), an unreadable line of events.jsonl skipped, a series whose file holds fewer (or more) requests than
    /// run.json's <see cref="SeriesInfo.TotalRequests"/>, a series file that run.json does not list. Show them with the
    /// report (<c>ReportWriter.WriteAll</c> takes them).
    /// </param>
    /// <exception cref="RawRunFormatException">A file is corrupt, or of a format version this reader does not know.</exception>
    /// <exception cref="FileNotFoundException">The folder holds no <c>run.json</c>.</exception>
    public static RunData Read(string runDirectory, out IReadOnlyList<string> warnings)
    {
        ArgumentException.ThrowIfNullOrEmpty(runDirectory);
        var found = new List<string>();
        var manifest = ReadManifest(RawRunFiles.ManifestPath(runDirectory));

        var timelines = new Dictionary<string, IReadOnlyList<SecondSample>>(StringComparer.Ordinal);
        foreach (var series in manifest.Series)
        {
            var timeline = ReadSeries(RawRunFiles.SeriesPath(runDirectory, series.Id), manifest.SeparatesFailures, found);
            timelines[series.Id] = timeline;
            if (series.TotalRequests is { } total && timeline.Sum(s => s.Requests) is var held && held != total)
            {
                found.Add(held < total
                    ? $"series {series.Id}: file damaged, {total - held} of {total} requests lost (its file holds {held})."
                    : $"series {series.Id}: its file holds {held} requests, more than the {total} run.json records.");
            }
        }

        var seriesDirectory = RawRunFiles.SeriesDirectory(runDirectory);
        if (Directory.Exists(seriesDirectory))
        {
            foreach (var path in Directory.EnumerateFiles(seriesDirectory, "*" + RawRunFiles.SeriesFileExtension).Order(StringComparer.Ordinal))
            {
                if (!timelines.ContainsKey(Path.GetFileNameWithoutExtension(path)))
                {
                    found.Add($"{path}: not a series of run.json; ignored.");
                }
            }
        }

        var events = new List<RunEvent>();
        var eventsPath = RawRunFiles.EventsPath(runDirectory);
        if (File.Exists(eventsPath))
        {
            // Events only annotate the figures: an unreadable one anywhere is skipped with a warning rather than failing the run.
            ReadLines(eventsPath, found, (line, number) => events.Add(ParseEvent(line, eventsPath, number)), skipAnyUnreadable: true);
        }

        warnings = found;
        return new RunData(manifest, timelines, events);
    }

    /// <exception cref="RawRunFormatException">The manifest is not valid JSON, lacks a field, or is of another format version.</exception>
    /// <exception cref="FileNotFoundException">The file does not exist.</exception>
    public static RunManifest ReadManifest(string path)
    {
        if (!File.Exists(path))
        {
            throw new FileNotFoundException($"{path} does not exist: not a run folder, or the run never started.", path);
        }

        ReadOnlyMemory<byte> bytes = File.ReadAllBytes(path);
        bytes = bytes.Span.StartsWith("\uFEFF"u8) ? bytes[3..] : bytes;
        RunManifest? manifest;
        try
        {
            // The version first, so that a newer format is reported as such rather than as a missing field.
            using (var document = JsonDocument.Parse(bytes))
            {
                if (document.RootElement.ValueKind != JsonValueKind.Object
                    || !document.RootElement.TryGetProperty("formatVersion", out var version)
                    || !version.TryGetInt32(out var number))
                {
                    throw new RawRunFormatException(path, null, "no formatVersion number; not a run manifest.");
                }

                if (!RunManifest.IsReadable(number))
                {
                    throw new RawRunFormatException(
                        path, null,
                        $"format version {number} is not supported; this reader knows versions {RunManifest.OldestReadableFormatVersion} to {RunManifest.CurrentFormatVersion}.");
                }
            }

            manifest = JsonSerializer.Deserialize<RunManifest>(bytes.Span, RawJson.Line);
        }
        catch (JsonException exception)
        {
            throw new RawRunFormatException(path, null, $"not a valid run manifest: {exception.Message}", exception);
        }

        var problem = manifest is null ? "null" : ManifestProblem(manifest);
        return problem is null ? manifest! : throw new RawRunFormatException(path, null, problem);
    }

    private static List<SecondSample> ReadSeries(string path, bool separatesFailures, List<string> warnings)
    {
        var seconds = new List<SecondSample>();
        if (!File.Exists(path))
        {
            return seconds;
        }

        ReadLines(path, warnings, (line, number) =>
        {
            var sample = ParseSecond(line, path, number, separatesFailures);
            if (seconds.Count > 0 && sample.Second <= seconds[^1].Second)
            {
                throw new RawRunFormatException(path, number, $"second {sample.Second} follows second {seconds[^1].Second}; seconds must increase.");
            }

            seconds.Add(sample);
        });
        return seconds;
    }

    /// <summary>
    /// Calls <paramref name="parse"/> for every non-blank line. A line that fails is an error, unless it is the last
    /// one: a crash while appending leaves a cut-off last line (or, after a power cut, zeros), which is skipped with a
    /// warning. With <paramref name="skipAnyUnreadable"/>, every unreadable line is skipped with a warning.
    /// </summary>
    private static void ReadLines(string path, List<string> warnings, Action<ReadOnlyMemory<byte>, int> parse, bool skipAnyUnreadable = false)
    {
        ReadOnlyMemory<byte> bytes;
        using (var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite))
        {
            var buffer = new byte[stream.Length];
            stream.ReadExactly(buffer);
            // A byte order mark, which some editors add, is not part of the first line.
            bytes = buffer.AsSpan().StartsWith("\uFEFF"u8) ? buffer.AsMemory(3) : buffer;
        }

        var lines = new List<(ReadOnlyMemory<byte> Text, int Number)>();
        var number = 0;
        while (!bytes.IsEmpty)
        {
            number++;
            var end = bytes.Span.IndexOf((byte)'\n');
            var line = end < 0 ? bytes : bytes[..end];
            bytes = end < 0 ? ReadOnlyMemory<byte>.Empty : bytes[(end + 1)..];
            if (!line.Span.Trim(" \t\r"u8).IsEmpty)
            {
                lines.Add((line, number));
            }
        }

        for (var i = 0; i < lines.Count; i++)
        {
            try
            {
                parse(lines[i].Text, lines[i].Number);
            }
            catch (RawRunFormatException exception) when (i == lines.Count - 1 && exception.Line == lines[i].Number)
            {
                warnings.Add($"{path}, line {lines[i].Number}: last line unreadable ({exception.Reason}); skipped, as a crash while writing leaves.");
            }
            catch (RawRunFormatException exception) when (skipAnyUnreadable && exception.Line == lines[i].Number)
            {
                warnings.Add($"{path}, line {lines[i].Number}: unreadable ({exception.Reason}); skipped.");
            }
        }
    }

    private static SecondSample ParseSecond(ReadOnlyMemory<byte> line, string path, int number, bool separatesFailures)
    {
        var sample = Deserialize<SecondSample>(line, path, number);
        var problem = sample switch
        {
            { Latency: null } or { StatusCounts: null } or { Server: null } => "latency, statusCounts and server are required.",
            { Second: < 0 } or { Users: < 0 } or { Requests: < 0 } or { Failures: < 0 } => "negative second or count.",
            _ when sample.Failures > sample.Requests => "more failures than requests.",
            _ when sample.StatusCounts.Values.Any(count => count < 0) || sample.SuccessCounts?.Values.Any(count => count < 0) == true => "negative status count.",
            _ => separatesFailures ? FormatThreeProblem(sample) : FormatTwoProblem(sample),
        };
        return problem is null ? sample : throw new RawRunFormatException(path, number, problem);
    }

    // Format 2: latency holds every request; the histograms of format 3 do not exist.
    private static string? FormatTwoProblem(SecondSample sample) => sample switch
    {
        _ when sample.Latency.TotalCount != sample.Requests => $"latency holds {sample.Latency.TotalCount} values for {sample.Requests} requests.",
        _ when sample.IntendedLatency is { } intended && intended.TotalCount > sample.Requests => "intendedLatency holds more values than requests.",
        { FailureLatency: not null } or { ServerTime: not null } or { QueueTime: not null } or { SuccessCounts: not null } or { Stream: not null } =>
            "failureLatency, serverTime, queueTime, successCounts and stream belong to format 3, not to this format 2 run.",
        _ => null,
    };

    // Format 3: latency holds the successes, failureLatency the failures; the rest describe successes.
    private static string? FormatThreeProblem(SecondSample sample)
    {
        var successes = sample.Requests - sample.Failures;
        var failed = sample.FailureLatency?.TotalCount ?? 0;
        return sample switch
        {
            _ when sample.Latency.TotalCount != successes =>
                $"latency holds {sample.Latency.TotalCount} values for {successes} successful requests.",
            _ when failed != sample.Failures => $"failureLatency holds {failed} values for {sample.Failures} failures.",
            _ when sample.IntendedLatency is { } intended && intended.TotalCount > successes => "intendedLatency holds more values than successful requests.",
            _ when sample.ServerTime is { } server && server.TotalCount > successes => "serverTime holds more values than successful requests.",
            _ when (sample.QueueTime?.TotalCount ?? 0) != (sample.ServerTime?.TotalCount ?? 0) => "queueTime and serverTime hold different numbers of values.",
            _ when sample.SuccessCounts is { } ok && ok.Values.Sum() != successes => $"successCounts add up to {ok.Values.Sum()}, not the {successes} successful requests.",
            _ when sample.Stream is { } stream => StreamProblem(stream, successes),
            _ => null,
        };
    }

    private static string? StreamProblem(StreamSample stream, long successes) => stream switch
    {
        { FirstMessage: null } or { MessageGap: null } => "stream needs firstMessage and messageGap.",
        { Calls: < 0 } or { MessagesSent: < 0 } or { MessagesReceived: < 0 } => "stream has a negative count.",
        _ when stream.Calls > successes => $"stream counts {stream.Calls} calls among {successes} successful requests.",
        _ when stream.FirstMessage.TotalCount > stream.Calls => "stream.firstMessage holds more values than calls.",
        _ when stream.MessageGap.TotalCount > stream.MessagesReceived => "stream.messageGap holds more values than messages received.",
        _ => null,
    };

    private static RunEvent ParseEvent(ReadOnlyMemory<byte> line, string path, int number)
    {
        var runEvent = Deserialize<RunEvent>(line, path, number);
        return runEvent is { Kind: not null, Message: not null }
            ? runEvent
            : throw new RawRunFormatException(path, number, "kind and message are required.");
    }

    private static T Deserialize<T>(ReadOnlyMemory<byte> line, string path, int number)
        where T : class
    {
        try
        {
            return JsonSerializer.Deserialize<T>(line.Span, RawJson.Line)
                ?? throw new RawRunFormatException(path, number, "null instead of a record.");
        }
        catch (JsonException exception)
        {
            throw new RawRunFormatException(path, number, $"not a valid {typeof(T).Name}: {exception.Message}", exception);
        }
    }

    private static string? ManifestProblem(RunManifest manifest)
    {
        if (manifest.RunId is null || manifest.Profile is null || manifest.ProfileDefinition is null || manifest.Modes is null
            || manifest.Series is null || manifest.Machine is null || manifest.CommandLine is null || manifest.Agents is null)
        {
            return "runId, profile, profileDefinition, modes, series, machine, commandLine and agents are required.";
        }

        var ids = new HashSet<string>(StringComparer.Ordinal);
        foreach (var series in manifest.Series)
        {
            if (series?.Id is null || series.Parameters is null)
            {
                return "every series needs an id and parameters.";
            }

            if (!RawRunFiles.IsValidSeriesId(series.Id) || !ids.Add(series.Id))
            {
                return $"series id '{series.Id}' is not a portable file name, or appears twice.";
            }

            if (RunManifestRules.SeriesProblem(series) is { } problem)
            {
                return problem;
            }
        }

        return null;
    }
}
