using System.Text.Encodings.Web;
using System.Text.Json;

namespace Harness.LoadTests.Clients;

/// <summary>How a <see cref="DataFeed"/> hands out its rows.</summary>
public enum DataFeedOrder
{
    /// <summary>Row 1, 2, … the last, then row 1 again: every row as often as any other.</summary>
    Circular,

    /// <summary>A uniform draw per call (with replacement), as NBomber's <c>DataFeed.Random</c> and Gatling's <c>random</c>.</summary>
    Random,

    /// <summary>Every row once per pass, each pass in an order of its own, as Gatling's <c>shuffle</c> then <c>circular</c>.</summary>
    Shuffle,
}

/// <summary>
/// <c>--data-feed</c>: rows of values (a CSV file with a header row, or JSON lines) that a template's
/// <c>{{feed.COLUMN}}</c> placeholders take, one row per call. Read, bounded and JSON-escaped once, before any load;
/// a call then only takes the next row's index (<see cref="Interlocked"/>, so any number of users may take at once).
/// </summary>
public sealed class DataFeed
{
    public const long MaxBytes = 100L * 1024 * 1024;
    public const int MaxRows = 1_000_000;

    private readonly Dictionary<string, int> _columns;

    // Each row's values as read, and as they go inside a JSON string (the same string when nothing needs escaping).
    private readonly string[][] _raw;
    private readonly string[][] _escaped;
    private readonly int _halfBits;
    private long _taken = -1;

    // As agent I of N (ShareAmong): this runner's k-th call takes position k×N + I of the run's one sequence.
    private ulong _stride = 1;
    private ulong _offset;

    internal DataFeed(string source, IReadOnlyList<string> columns, string[][] rows, DataFeedOrder order, ulong seed, string digest)
    {
        Source = source;
        Digest = digest;
        Columns = columns;
        Order = order;
        _columns = columns.Select((c, i) => (c, i)).ToDictionary(p => p.c, p => p.i, StringComparer.Ordinal);
        _raw = rows;
        _escaped = [.. rows.Select(r => r.Select(Escape).ToArray())];
        Seed = seed;
        _halfBits = Math.Max(1, (64 - System.Numerics.BitOperations.LeadingZeroCount((ulong)Math.Max(1, rows.Length - 1)) + 1) / 2);
    }

    /// <summary>The file, as the option gave it.</summary>
    public string Source { get; }

    /// <summary>The first 16 hex digits of the SHA-256 of the file's bytes as they were read: what agents compare.</summary>
    public string Digest { get; }

    public IReadOnlyList<string> Columns { get; }

    public DataFeedOrder Order { get; }

    public int Count => _raw.Length;

    /// <summary>
    /// The seed of the random and shuffle orders (<c>--data-feed-seed</c>, or a new one per run): the same seed, file
    /// and order give the same sequence of rows in every run.
    /// </summary>
    public ulong Seed { get; }

    /// <summary>Reads a <c>.csv</c> file (header row, RFC 4180 quoting) or a <c>.jsonl</c>/<c>.ndjson</c> file (one JSON object a line).</summary>
    /// <param name="seed">The random order's seed; null: a new one.</param>
    /// <exception cref="CallSetupException">The file cannot be read, is too large, empty or malformed; the message says where.</exception>
    public static DataFeed Load(string path, DataFeedOrder order, ulong? seed = null)
    {
        var what = $"--data-feed {path}";
        var extension = Path.GetExtension(path).ToLowerInvariant();
        if (extension is not (".csv" or ".jsonl" or ".ndjson"))
        {
            throw new CallSetupException($"{what}: give a .csv file (with a header row) or a .jsonl/.ndjson file (one JSON object a line).");
        }

        byte[] bytes;
        try
        {
            var length = new FileInfo(path).Length;
            if (length > MaxBytes)
            {
                throw new CallSetupException($"{what}: is {length / (1024 * 1024)} MB; a data feed may be at most {MaxBytes / (1024 * 1024)} MB (and {MaxRows:N0} rows).");
            }

            bytes = File.ReadAllBytes(path);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new CallSetupException($"{what}: cannot be read ({ex.Message}).", ex);
        }

        // Read once: the digest is of the very bytes the rows come from. The text is decoded as File.ReadAllText does
        // (UTF-8, or the encoding a byte order mark names).
        using var reader = new StreamReader(new MemoryStream(bytes), System.Text.Encoding.UTF8, detectEncodingFromByteOrderMarks: true);
        var text = reader.ReadToEnd();
        var digest = Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(bytes))[..16];
        var (columns, rows) = extension == ".csv" ? DataFeedCsv.Parse(text, what) : ParseJsonLines(text, what);
        return new DataFeed(path, columns, rows, order, seed ?? (ulong)System.Random.Shared.NextInt64(), digest);
    }

    /// <summary>The column's index, for a template's placeholder.</summary>
    /// <exception cref="CallSetupException">No such column; the message lists the file's.</exception>
    internal int Column(string name, string what) => _columns.TryGetValue(name, out var index)
        ? index
        : throw new CallSetupException($"{what}: '{{{{feed.{name}}}}}' names no column of --data-feed {Source}; its columns are {string.Join(", ", Columns)}.");

    /// <summary>
    /// Makes this runner agent <paramref name="index"/> of <paramref name="count"/> (<c>run --agent I/N</c>), before its
    /// first call: its k-th call takes position k×N + I of the sequence one runner would take, so that agents given the
    /// same file, order and seed share the rows (circular and shuffle: every row once per pass among them all) instead
    /// of each sending the same rows.
    /// </summary>
    public void ShareAmong(int index, int count)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(index, count);
        (_stride, _offset) = ((ulong)count, (ulong)index);
    }

    /// <summary>The row the next call takes.</summary>
    internal int Next() => RowAt(((ulong)Interlocked.Increment(ref _taken) * _stride) + _offset);

    /// <summary>The row of the <paramref name="taken"/>-th call (from 0): a function of the seed and the number alone, so no lock is needed between users.</summary>
    internal int RowAt(ulong taken)
    {
        var count = (ulong)_raw.Length;
        return Order switch
        {
            DataFeedOrder.Circular => (int)(taken % count),
            DataFeedOrder.Random => (int)(Mix(Seed + (taken * 0x9E3779B97F4A7C15UL)) % count),
            _ => Shuffled(taken / count, taken % count, count),
        };
    }

    // The pass's permutation of 0..count-1, without storing it: a four-round Feistel network keyed by the seed and
    // the pass is a permutation of the 2×halfBits-bit numbers (at most 4× count of them); applying it again until the
    // result falls below count (cycle walking) restricts it to 0..count-1, about two rounds of walking on average.
    private int Shuffled(ulong pass, ulong position, ulong count)
    {
        var key = Mix(Seed ^ Mix(pass));
        var mask = (1UL << _halfBits) - 1;
        var x = position;
        do
        {
            ulong left = x >> _halfBits, right = x & mask;
            for (var round = 1UL; round <= 4; round++)
            {
                (left, right) = (right, left ^ (Mix(key + (round * 0x9E3779B97F4A7C15UL) + right) & mask));
            }

            x = (left << _halfBits) | right;
        }
        while (x >= count);
        return (int)x;
    }

    /// <param name="inJsonString">True where the placeholder stands inside a JSON string: the value escaped for it.</param>
    internal string Value(int row, int column, bool inJsonString) => inJsonString ? _escaped[row][column] : _raw[row][column];

    internal static void CheckRows(int rows, string what)
    {
        if (rows > MaxRows)
        {
            throw new CallSetupException($"{what}: has more than {MaxRows:N0} rows, the most a data feed may have (and {MaxBytes / (1024 * 1024)} MB).");
        }
    }

    private static (IReadOnlyList<string> Columns, string[][] Rows) ParseJsonLines(string text, string what)
    {
        List<string>? columns = null;
        var rows = new List<string[]>();
        var lines = text.Split('\n');
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i].TrimEnd('\r');
            if (line.Trim().Length == 0)
            {
                continue;
            }

            JsonDocument document;
            try
            {
                document = JsonDocument.Parse(line);
            }
            catch (JsonException ex)
            {
                throw new CallSetupException($"{what}: line {i + 1} is not JSON ({ex.Message.ReplaceLineEndings(" ")}).", ex);
            }

            using (document)
            {
                if (document.RootElement.ValueKind != JsonValueKind.Object)
                {
                    throw new CallSetupException($"{what}: line {i + 1} is not a JSON object; each line is one object, its properties the columns.");
                }

                columns ??= [.. document.RootElement.EnumerateObject().Select(p => p.Name).Distinct(StringComparer.Ordinal)];
                var row = new string[columns.Count];
                for (var c = 0; c < columns.Count; c++)
                {
                    row[c] = document.RootElement.TryGetProperty(columns[c], out var value)
                        ? value.ValueKind == JsonValueKind.String ? value.GetString()! : value.GetRawText()
                        : throw new CallSetupException($"{what}: line {i + 1} has no '{columns[c]}', which the first line has; every line needs the first line's properties ({string.Join(", ", columns)}).");
                }

                rows.Add(row);
                CheckRows(rows.Count, what);
            }
        }

        return columns is null || columns.Count == 0
            ? throw new CallSetupException($"{what}: is empty; give one JSON object a line, its properties the columns.")
            : (columns, rows.ToArray());
    }

    private static string Escape(string value)
    {
        var escaped = JsonEncodedText.Encode(value, JavaScriptEncoder.UnsafeRelaxedJsonEscaping).ToString();
        return escaped == value ? value : escaped;
    }

    /// <summary>SplitMix64's finaliser: the n-th draw depends only on the seed and n, so no lock is needed between users.</summary>
    private static ulong Mix(ulong x)
    {
        x += 0x9E3779B97F4A7C15UL;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9UL;
        x = (x ^ (x >> 27)) * 0x94D049BB133111EBUL;
        return x ^ (x >> 31);
    }
}
