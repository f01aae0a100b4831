using System.Text.Json;
using System.Text.Json.Serialization;

namespace Harness.LoadTests.Distributed;

/// <summary>
/// The <c>done</c> file an agent writes in its run folder once the folder is complete (raw files final, report
/// rendered), whatever the run's exit code: what <c>harness merge --wait</c> waits for.
/// </summary>
/// <param name="Agent"><c>agent-I-of-N</c>.</param>
/// <param name="ExitCode">The agent's exit code (docs/running.md, "Exit codes"): 0 or 1 for a run that went to its end.</param>
internal sealed record DoneMarker(string Agent, int ExitCode, DateTimeOffset FinishedAt)
{
    public const string FileName = "done";

    private static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web) { WriteIndented = true };

    /// <summary>True when the run went to its end: its exit code is 0 (passed) or 1 (a threshold failed).</summary>
    [JsonIgnore]
    public bool Completed => ExitCode is 0 or 1;

    public static string PathIn(string runDirectory) => Path.Combine(runDirectory, FileName);

    /// <summary>Written to a temporary file and renamed, so a waiting merge never reads half of it.</summary>
    public void WriteTo(string runDirectory)
    {
        var path = PathIn(runDirectory);
        var temporary = path + ".tmp";
        File.WriteAllText(temporary, JsonSerializer.Serialize(this, Json) + "\n");
        File.Move(temporary, path, overwrite: true);
    }

    /// <summary>The marker in <paramref name="runDirectory"/>; null when there is none (yet) or it cannot be read.</summary>
    public static DoneMarker? ReadFrom(string runDirectory)
    {
        try
        {
            return JsonSerializer.Deserialize<DoneMarker>(File.ReadAllText(PathIn(runDirectory)), Json);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException)
        {
            return null;
        }
    }
}
