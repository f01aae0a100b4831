using System.Buffers;
using System.Text.Json;

namespace Harness.LoadTests.Recording;

/// <summary>
/// Writes a run folder (docs/raw-format.md). Every record is one JSON line handed to the operating system in a
/// single write as soon as it is appended, so a process that dies leaves whole lines and at most one cut-off last
/// line per file, which <see cref="RawRunReader"/> skips. <c>run.json</c> is replaced atomically (write a
/// temporary file, then rename). Thread-safe.
/// </summary>
public sealed class RawRunWriter : IDisposable
{
    private readonly Lock _gate = new();
    private readonly Dictionary<string, FileStream> _seriesFiles = new(StringComparer.Ordinal);
    private readonly ArrayBufferWriter<byte> _buffer = new(4096);
    private readonly FileStream _events;
    private bool _disposed;

    /// <summary>Creates the folder (and <c>series/</c>) and an empty <c>events.jsonl</c>.</summary>
    /// <exception cref="IOException">The folder already holds a run: appending to it would mix two runs.</exception>
    public RawRunWriter(string runDirectory)
    {
        ArgumentException.ThrowIfNullOrEmpty(runDirectory);
        RunDirectory = Path.GetFullPath(runDirectory);
        if (File.Exists(RawRunFiles.ManifestPath(RunDirectory)) || File.Exists(RawRunFiles.EventsPath(RunDirectory))
            || (Directory.Exists(RawRunFiles.SeriesDirectory(RunDirectory))
                && Directory.EnumerateFileSystemEntries(RawRunFiles.SeriesDirectory(RunDirectory)).Any()))
        {
            throw new IOException($"{RunDirectory} already holds a run; write each run to a new folder.");
        }

        Directory.CreateDirectory(RawRunFiles.SeriesDirectory(RunDirectory));
        _events = OpenForAppend(RawRunFiles.EventsPath(RunDirectory));
    }

    public string RunDirectory { get; }

    /// <summary>Writes a whole run to a new folder, e.g. the result of <see cref="RunMerger.Merge"/>.</summary>
    public static void Write(string runDirectory, RunData run)
    {
        ArgumentNullException.ThrowIfNull(run);
        using var writer = new RawRunWriter(runDirectory);
        writer.WriteManifest(run.Manifest);
        foreach (var series in run.Manifest.Series)
        {
            writer.AppendSeconds(series.Id, run.Timelines.GetValueOrDefault(series.Id) ?? []);
        }

        foreach (var runEvent in run.Events)
        {
            writer.AppendEvent(runEvent);
        }

        writer.Flush(toDisk: true);
    }

    /// <summary>Replaces <c>run.json</c> atomically: a reader sees the old manifest or the new one, never a mix.</summary>
    public void WriteManifest(RunManifest manifest)
    {
        ArgumentNullException.ThrowIfNull(manifest);
        var path = RawRunFiles.ManifestPath(RunDirectory);
        var temporary = path + ".tmp";
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None))
            {
                JsonSerializer.Serialize(stream, manifest, RawJson.Indented);
                stream.WriteByte((byte)'\n');
                stream.Flush(flushToDisk: true);
            }

            File.Move(temporary, path, overwrite: true);
        }
    }

    /// <summary>Creates the series' file if it does not exist yet, so a series with no second written still shows.</summary>
    public void CreateSeries(string seriesId)
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            SeriesFile(seriesId);
        }
    }

    /// <summary>Appends seconds to <c>series/&lt;seriesId&gt;.jsonl</c>, in one write.</summary>
    /// <remarks>The caller keeps seconds in increasing order across calls; the reader rejects a file that does not.</remarks>
    public void AppendSeconds(string seriesId, IReadOnlyList<SecondSample> seconds)
    {
        ArgumentNullException.ThrowIfNull(seconds);
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            var file = SeriesFile(seriesId);
            _buffer.ResetWrittenCount();
            foreach (var second in seconds)
            {
                ArgumentNullException.ThrowIfNull(second, nameof(seconds));
                WriteLine(second);
            }

            file.Write(_buffer.WrittenSpan);
        }
    }

    public void AppendEvent(RunEvent runEvent)
    {
        ArgumentNullException.ThrowIfNull(runEvent);
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _buffer.ResetWrittenCount();
            WriteLine(runEvent);
            _events.Write(_buffer.WrittenSpan);
        }
    }

    /// <summary>
    /// Appended lines already reach the operating system, which keeps them if the process dies;
    /// <paramref name="toDisk"/> also asks it to put them on the disk, which keeps them through a power cut.
    /// </summary>
    public void Flush(bool toDisk)
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            _events.Flush(toDisk);
            foreach (var file in _seriesFiles.Values)
            {
                file.Flush(toDisk);
            }
        }
    }

    public void Dispose()
    {
        lock (_gate)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
            _events.Dispose();
            foreach (var file in _seriesFiles.Values)
            {
                file.Dispose();
            }
        }
    }

    private void WriteLine<T>(T value)
    {
        using (var json = new Utf8JsonWriter(_buffer, new JsonWriterOptions { Encoder = RawJson.Line.Encoder }))
        {
            JsonSerializer.Serialize(json, value, RawJson.Line);
        }

        _buffer.Write("\n"u8);
    }

    private FileStream SeriesFile(string seriesId)
    {
        if (!_seriesFiles.TryGetValue(seriesId, out var file))
        {
            file = OpenForAppend(RawRunFiles.SeriesPath(RunDirectory, seriesId));
            _seriesFiles.Add(seriesId, file);
        }

        return file;
    }

    // No buffer in the stream: each append is one write to the operating system, so a crash cannot cut a line
    // anywhere but at the end of the file. FileShare.Read lets a report read the files of a run still going.
    private static FileStream OpenForAppend(string path) =>
        new(path, FileMode.Append, FileAccess.Write, FileShare.Read, bufferSize: 0);
}
