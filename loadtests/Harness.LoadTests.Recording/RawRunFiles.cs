namespace Harness.LoadTests.Recording;

/// <summary>The names and places of a run folder's raw files (docs/raw-format.md).</summary>
public static class RawRunFiles
{
    /// <summary>The <see cref="RunManifest"/>, rewritten whole (never appended), so it is never left half written.</summary>
    public const string ManifestFileName = "run.json";

    /// <summary>One <see cref="RunEvent"/> per line, appended as they happen.</summary>
    public const string EventsFileName = "events.jsonl";

    /// <summary>The folder of the per-series files, one <see cref="SecondSample"/> per line.</summary>
    public const string SeriesDirectoryName = "series";

    public const string SeriesFileExtension = ".jsonl";

    public static string ManifestPath(string runDirectory) => Path.Combine(runDirectory, ManifestFileName);

    public static string EventsPath(string runDirectory) => Path.Combine(runDirectory, EventsFileName);

    public static string SeriesDirectory(string runDirectory) => Path.Combine(runDirectory, SeriesDirectoryName);

    /// <exception cref="ArgumentException">The id cannot be a file name.</exception>
    public static string SeriesPath(string runDirectory, string seriesId)
    {
        ValidateSeriesId(seriesId);
        return Path.Combine(SeriesDirectory(runDirectory), seriesId + SeriesFileExtension);
    }

    /// <summary>Series ids become file names, so they must be one portable path segment.</summary>
    /// <exception cref="ArgumentException">The id is empty, or holds a character that is not a letter, digit, '-', '_' or '.', or is "." or "..".</exception>
    public static void ValidateSeriesId(string seriesId)
    {
        ArgumentNullException.ThrowIfNull(seriesId);
        if (!IsValidSeriesId(seriesId))
        {
            throw new ArgumentException(
                $"Series id '{seriesId}' is not a portable file name: use letters, digits, '-', '_' and '.' only.",
                nameof(seriesId));
        }
    }

    internal static bool IsValidSeriesId(string seriesId) =>
        seriesId.Length is > 0 and <= 200
        && seriesId is not "." and not ".."
        && seriesId.All(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.');
}
