using System.Globalization;
using System.Text.Json;
using Harness.LoadTests.Cli;
using Harness.LoadTests.Profiles;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// Agents meeting in a shared folder (a volume every agent mounts), so that they start together without talking to
/// each other. At each meeting (<c>start</c>, then one per series) every agent writes a ready file holding the time
/// it arrived, by its own clock, and waits, at most its timeout, until all N ready files are there. Each then starts at
/// <see cref="StartAfter"/> the latest ready time: one instant, computed the same way by every agent from the same
/// files. The agents' clocks must agree (NTP, as on Kubernetes nodes); the files' own times are not used, since a
/// network file system stamps them with the server's clock.
/// </summary>
/// <remarks>
/// An agent whose wait ends without the others writes a <c>gave-up</c> file before failing, and every agent checks
/// for one up to its start, so a late arrival cannot start alone after the others have left. Files appear by
/// rename, so a reader never sees half of one.
/// </remarks>
internal static class AgentBarrier
{
    private const string ReadySuffix = ".ready";
    private const string GaveUpSuffix = ".gave-up";
    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(100);
    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    /// <summary>How long after the last arrival the agents start, at least: every agent polls several times in it.</summary>
    public static readonly TimeSpan Margin = TimeSpan.FromSeconds(1);

    /// <summary>The first whole second at least <see cref="Margin"/> after <paramref name="lastReady"/>, in UTC.</summary>
    public static DateTimeOffset StartAfter(DateTimeOffset lastReady)
    {
        var earliest = lastReady.ToUniversalTime() + Margin;
        var whole = new DateTimeOffset(earliest.Ticks - (earliest.Ticks % TimeSpan.TicksPerSecond), TimeSpan.Zero);
        return whole < earliest ? whole.AddSeconds(1) : whole;
    }

    /// <summary>
    /// Claims the lowest free agent index in <paramref name="barrier"/> by creating <c>claims/agent-I</c>, which only
    /// one process can create (for agents that cannot be told their index, like compose's <c>--scale</c> replicas).
    /// </summary>
    /// <exception cref="UsageException">Every index of <paramref name="count"/> is taken.</exception>
    public static int Claim(string barrier, int count, string machine)
    {
        var claims = Directory.CreateDirectory(Path.Combine(barrier, "claims")).FullName;
        for (var index = 0; index < count; index++)
        {
            try
            {
                using var claim = new FileStream(Path.Combine(claims, AgentSettings.Name(index, count)), FileMode.CreateNew, FileAccess.Write);
                claim.Write(System.Text.Encoding.UTF8.GetBytes(machine + "\n"));
                return index;
            }
            catch (IOException) when (File.Exists(Path.Combine(claims, AgentSettings.Name(index, count))))
            {
                // Another agent has it; try the next.
            }
        }

        throw new UsageException(
            $"--barrier {barrier}: all {count} agent indexes are claimed ({claims}); more agents started than claim/{count} says, or the folder holds an earlier run's claims.");
    }

    /// <summary>
    /// Writes this agent's ready file for <paramref name="phase"/>, waits for the other agents' (at most
    /// <paramref name="timeout"/>), then until the start they agree on, and returns that start.
    /// </summary>
    /// <exception cref="AgentsMissingException">An agent was not ready within the timeout, or gave up waiting.</exception>
    /// <exception cref="UsageException">
    /// This agent's ready file is already there (the folder is an earlier run's), an agent counts a different N, or
    /// the folder cannot be written or read.
    /// </exception>
    /// <exception cref="OperationCanceledException">Interrupted; the others are told by a <c>gave-up</c> file.</exception>
    public static async Task<DateTimeOffset> MeetAsync(
        string barrier, string phase, int index, int count, TimeSpan timeout, CancellationToken cancellationToken)
    {
        try
        {
            return await MeetInAsync(barrier, phase, index, count, timeout, cancellationToken);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new UsageException($"--barrier {barrier}: {ex.Message} Every agent needs to write and read the barrier folder.");
        }
    }

    private static async Task<DateTimeOffset> MeetInAsync(
        string barrier, string phase, int index, int count, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var folder = Directory.CreateDirectory(Path.Combine(barrier, phase)).FullName;
        var ready = ReadyPath(folder, index);
        if (File.Exists(ready))
        {
            throw new UsageException(
                $"--barrier {barrier}: {phase}/{Path.GetFileName(ready)} is already there, from an earlier run; give each run a barrier folder of its own.");
        }

        var arrived = DateTimeOffset.UtcNow;
        WriteAtomically(ready, JsonSerializer.Serialize(new ReadyFile(index, count, arrived), Json));
        try
        {
            var deadline = arrived + timeout;
            while (true)
            {
                ThrowIfAnyGaveUp(barrier, phase, folder, index, count);
                var arrivals = Arrivals(barrier, phase, folder, count);
                if (arrivals.Count == count)
                {
                    var start = StartAfter(arrivals.Max());
                    await WaitUntilAsync(start, cancellationToken);

                    ThrowIfAnyGaveUp(barrier, phase, folder, index, count);
                    return start;
                }

                if (DateTimeOffset.UtcNow >= deadline)
                {
                    WriteAtomically(Path.Combine(folder, Name(index, GaveUpSuffix)), DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture));
                    var missing = Enumerable.Range(0, count).Where(i => !File.Exists(ReadyPath(folder, i)));
                    throw new AgentsMissingException(
                        $"--barrier {barrier} ({phase}): {Agents(missing)} of {count} not ready within {DurationJsonConverter.Format(timeout)} of agent {index}'s arrival; the agents stopped here.");
                }

                await Task.Delay(Poll, cancellationToken);
            }
        }
        catch (OperationCanceledException)
        {
            // Interrupted: let the others fail now rather than wait out their timeout.
            WriteAtomically(Path.Combine(folder, Name(index, GaveUpSuffix)), DateTimeOffset.UtcNow.ToString("O", CultureInfo.InvariantCulture));
            throw;
        }
    }

    /// <summary>The meeting before series <paramref name="index"/> (0-based, in run order), named after it.</summary>
    public static string SeriesPhase(int index, string seriesId) => string.Create(CultureInfo.InvariantCulture, $"series-{index + 1:D3}-{seriesId}");

    private static List<DateTimeOffset> Arrivals(string barrier, string phase, string folder, int count)
    {
        var arrivals = new List<DateTimeOffset>();
        for (var i = 0; i < count; i++)
        {
            var path = ReadyPath(folder, i);
            if (!File.Exists(path))
            {
                continue;
            }

            ReadyFile? file;
            try
            {
                file = JsonSerializer.Deserialize<ReadyFile>(File.ReadAllText(path), Json);
            }
            catch (JsonException)
            {
                file = null;
            }

            if (file is null || file.Index != i)
            {
                throw new UsageException($"--barrier {barrier}: {phase}/{Path.GetFileName(path)} is not an agent's ready file; give each run a barrier folder of its own.");
            }

            if (file.Count != count)
            {
                throw new UsageException(
                    $"--barrier {barrier}: agent {i} was started as one of {file.Count} agents, this one as one of {count}; start every agent with the same --agent …/N.");
            }

            arrivals.Add(file.ReadyAt);
        }

        return arrivals;
    }

    private static void ThrowIfAnyGaveUp(string barrier, string phase, string folder, int index, int count)
    {
        var gaveUp = Enumerable.Range(0, count).Where(i => i != index && File.Exists(Path.Combine(folder, Name(i, GaveUpSuffix)))).ToList();
        if (gaveUp.Count > 0)
        {
            var missing = Enumerable.Range(0, count).Where(i => !File.Exists(ReadyPath(folder, i))).ToList();
            throw new AgentsMissingException(
                $"--barrier {barrier} ({phase}): {Agents(gaveUp)} of {count} stopped waiting before every agent was ready"
                + (missing.Count > 0 ? $" ({Agents(missing)} missing)" : "") + "; the agents stopped here.");
        }
    }

    private static string Agents(IEnumerable<int> indexes)
    {
        var list = indexes.ToList();
        return (list.Count == 1 ? "agent " : "agents ") + string.Join(", ", list);
    }

    private static string ReadyPath(string folder, int index) => Path.Combine(folder, Name(index, ReadySuffix));

    private static string Name(int index, string suffix) => string.Create(CultureInfo.InvariantCulture, $"agent-{index}{suffix}");

    private static void WriteAtomically(string path, string text)
    {
        var temporary = $"{path}.{Environment.ProcessId}.tmp";
        File.WriteAllText(temporary, text);
        File.Move(temporary, path, overwrite: true);
    }

    private sealed record ReadyFile(int Index, int Count, DateTimeOffset ReadyAt);

    /// <summary>Returns once the wall clock has reached <paramref name="start"/>, never before: a timer may fire a
    /// millisecond or two early, and agents that meet at a whole second must not start in the one before it.</summary>
    internal static async Task WaitUntilAsync(DateTimeOffset start, CancellationToken cancellationToken)
    {
        for (var wait = start - DateTimeOffset.UtcNow; wait > TimeSpan.Zero; wait = start - DateTimeOffset.UtcNow)
        {
            await Task.Delay(wait + TimeSpan.FromMilliseconds(1), cancellationToken);
        }
    }
}

/// <summary>Agents did not all meet (a barrier timed out, an agent gave up, an agent was late for <c>--start-at</c>): exit code 6.</summary>
internal sealed class AgentsMissingException(string message) : Exception(message);
