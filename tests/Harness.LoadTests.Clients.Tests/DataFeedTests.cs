using System.Collections.Concurrent;
using System.Text.Json;

namespace Harness.LoadTests.Clients.Tests;

/// <summary><c>--data-feed</c>: its files read (CSV as RFC 4180 quotes it, JSON lines), its bounds, and the rows a template's <c>{{feed.COLUMN}}</c> takes.</summary>
public sealed class DataFeedTests : IDisposable
{
    private const string FedTemplate = """{"id":{{feed.id}},"name":"{{feed.name}}","n":{{seq}}}""";
    private const string WrittenTemplate = """{"id":12345,"name":"a \"b\"","n":{{seq}}}""";

    private readonly string _folder = Directory.CreateTempSubdirectory("data-feed-").FullName;

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void Csv_QuotedFields_KeepCommasLineBreaksAndDoubledQuotes()
    {
        var feed = Load("f.csv", "id,name,note\r\n1,plain,\"a, b\"\r\n2,\"say \"\"hi\"\"\",\"two\nlines\"\n\n3,,\"\"\n");
        var template = CallTemplate.Parse("""{{feed.id}}|{{feed.name}}|{{feed.note}}""", "--data", feed);

        var rendered = Enumerable.Range(0, 3).Select(_ => template.Render(1, 1, new Random(1))).ToList();

        Assert.Equal(["id", "name", "note"], feed.Columns);
        Assert.Equal(["1|plain|a, b", "2|say \"hi\"|two\nlines", "3||"], rendered);
    }

    [Fact]
    public void JsonLines_TakeStringsAsTheirText_AndOtherValuesAsTheirJson()
    {
        var feed = Load("f.jsonl", "{\"id\":7,\"name\":\"x\\\"y\",\"tags\":[1,2]}\n\n{\"name\":\"z\",\"id\":\"8\",\"tags\":null}\r\n");
        var template = CallTemplate.Parse("""{"id":{{feed.id}},"name":"{{feed.name}}","tags":{{feed.tags}}}""", "--data", feed);

        var first = template.Render(1, 1, new Random(1));
        var second = template.Render(2, 1, new Random(1));

        Assert.Equal("""{"id":7,"name":"x\"y","tags":[1,2]}""", first);
        Assert.Equal("""{"id":8,"name":"z","tags":null}""", second);
    }

    [Fact]
    public void ValueInsideAJsonString_IsEscaped_AndTheResultParses()
    {
        var feed = Load("f.csv", "name\n\"quote \"\" back\\slash\ttab, é\"\n");
        var template = CallTemplate.Parse("""{"name":"u-{{feed.name}}","at":"\"{{seq}}"}""", "--data", feed);

        var rendered = template.Render(3, 1, new Random(1));

        using var json = JsonDocument.Parse(rendered);
        Assert.Equal("u-quote \" back\\slash\ttab, é", json.RootElement.GetProperty("name").GetString());
    }

    [Fact]
    public void Circular_OverConcurrentTakers_GivesEveryRowEqually()
    {
        var feed = Load("f.csv", "n\n" + string.Join('\n', Enumerable.Range(0, 7)));
        var template = CallTemplate.Parse("{{feed.n}}", "--data", feed);
        var counts = new ConcurrentDictionary<string, int>();

        // 4 takers, 7 × 300 takes in all: each row exactly 300 times, whatever the interleaving.
        Parallel.For(0, 7 * 300, new ParallelOptions { MaxDegreeOfParallelism = 4 }, _ => counts.AddOrUpdate(template.Render(1, 1, Random.Shared), 1, (_, c) => c + 1));

        Assert.Equal(7, counts.Count);
        Assert.All(counts.Values, c => Assert.Equal(300, c));
    }

    [Fact]
    public void Random_WithAFixedSeed_DrawsTheSameRows_AndReachesEveryRow()
    {
        var path = Write("f.csv", "n\n" + string.Join('\n', Enumerable.Range(0, 10)));
        string[] Draw(ulong seed)
        {
            var template = CallTemplate.Parse("{{feed.n}}", "--data", DataFeed.Load(path, DataFeedOrder.Random, seed));
            return [.. Enumerable.Range(0, 1000).Select(_ => template.Render(1, 1, Random.Shared))];
        }

        var once = Draw(42);
        var again = Draw(42);
        var other = Draw(43);

        Assert.Equal(once, again);
        Assert.NotEqual(once, other);
        Assert.Equal(10, once.Distinct().Count());
        Assert.NotEqual([.. Enumerable.Range(0, 1000).Select(i => (i % 10).ToString(System.Globalization.CultureInfo.InvariantCulture))], once);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(10_000)]
    public void Shuffle_TakesEveryRowOncePerPass_InAnOrderOfItsOwn_AndASeedRepeatsIt(int rows)
    {
        var path = Write("f.csv", "n\n" + string.Join('\n', Enumerable.Range(0, rows)));
        int[] Take(ulong seed)
        {
            var feed = DataFeed.Load(path, DataFeedOrder.Shuffle, seed);
            return [.. Enumerable.Range(0, 3 * rows).Select(_ => feed.Next())];
        }

        var once = Take(42);
        var again = Take(42);
        var other = Take(43);

        Assert.Equal(once, again);
        var passes = once.Chunk(rows).ToList();
        Assert.All(passes, pass => Assert.Equal(Enumerable.Range(0, rows), pass.Order()));
        if (rows >= 7)
        {
            Assert.NotEqual(passes[0], passes[1]);
            Assert.NotEqual(Enumerable.Range(0, rows), passes[0]);
            Assert.NotEqual(once, other);
        }
    }

    [Fact]
    public void Rendering_WithAFeed_AllocatesNoMoreThanTheSameTextWrittenInTheTemplate()
    {
        // The values were read and escaped once: a call's rendering only appends them, as it appends literal text.
        // The written template is padded with JSON whitespace to the fed one's length: the builder is sized from it.
        var fed = CallTemplate.Parse(FedTemplate, "--data", Load("f.csv", "id,name\n12345,\"a \"\"b\"\"\"\n"));
        var written = CallTemplate.Parse(WrittenTemplate.PadRight(FedTemplate.Length), "--data");
        Assert.Equal(written.Render(7, 1, Random.Shared).TrimEnd(), fed.Render(7, 1, Random.Shared));

        var fedBytes = AllocatedPerRender(fed);
        var writtenBytes = AllocatedPerRender(written);

        Assert.True(fedBytes <= writtenBytes, $"{fedBytes} bytes a render with the feed, {writtenBytes} without");
    }

    [Fact]
    public void Samples_AreTheFirstAndLastRows()
    {
        var template = CallTemplate.Parse("""{"id":{{feed.id}}}""", "--data", Load("f.csv", "id\n5\n6\n9\n"));

        Assert.Equal("""{"id":5}""", template.Sample(high: false));
        Assert.Equal("""{"id":9}""", template.Sample(high: true));
    }

    [Theory]
    [InlineData("f.csv", "", "is empty; give a header row")]
    [InlineData("f.csv", "id,name\n", "has a header row (id, name) but no rows")]
    [InlineData("f.csv", "id,name\n1,a\n2\n3,c\n", "line 3 has 1 fields; the header row has 2 (id, name)")]
    [InlineData("f.csv", "id,name\n1,\"a\n\n2,b\n", "the quoted field that starts on line 2 is never closed")]
    [InlineData("f.csv", "id,name\n1,\"a\"b\n", "line 2: a quoted field must end at a comma or the line's end")]
    [InlineData("f.csv", "id,id\n1,2\n", "names the column 'id' twice")]
    [InlineData("f.jsonl", "", "is empty; give one JSON object a line")]
    [InlineData("f.jsonl", "{\"id\":1}\n[2]\n", "line 2 is not a JSON object")]
    [InlineData("f.jsonl", "{\"id\":1}\n{\"id\":\n", "line 2 is not JSON")]
    [InlineData("f.ndjson", "{\"id\":1,\"x\":2}\n{\"id\":2}\n", "line 2 has no 'x', which the first line has")]
    [InlineData("f.txt", "id\n1\n", "give a .csv file (with a header row) or a .jsonl/.ndjson file")]
    public void MalformedFiles_AreRefused_SayingWhere(string name, string content, string expected)
    {
        var path = Write(name, content);

        var refusal = Assert.Throws<CallSetupException>(() => DataFeed.Load(path, DataFeedOrder.Circular));

        Assert.Contains(expected, refusal.Message, StringComparison.Ordinal);
        Assert.StartsWith($"--data-feed {path}: ", refusal.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void MoreRowsThanTheBound_AreRefused_NamingTheLimit()
    {
        var path = Write("big.csv", "n\n" + string.Concat(Enumerable.Repeat("1\n", DataFeed.MaxRows + 1)));

        var refusal = Assert.Throws<CallSetupException>(() => DataFeed.Load(path, DataFeedOrder.Circular));

        Assert.Contains("has more than 1,000,000 rows, the most a data feed may have", refusal.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void LargerFileThanTheBound_IsRefused_NamingTheLimit()
    {
        var path = Path.Combine(_folder, "huge.csv");
        using (var file = File.Create(path))
        {
            file.SetLength(DataFeed.MaxBytes + 1);
        }

        var refusal = Assert.Throws<CallSetupException>(() => DataFeed.Load(path, DataFeedOrder.Circular));

        Assert.Contains("a data feed may be at most 100 MB", refusal.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void MissingColumn_IsRefused_NamingTheFilesColumns()
    {
        var feed = Load("f.csv", "id,name\n1,a\n");

        var refusal = Assert.Throws<CallSetupException>(() => CallTemplate.Parse("""{"id":{{feed.ID}}}""", "--data", feed));

        Assert.Contains("'{{feed.ID}}' names no column of --data-feed", refusal.Message, StringComparison.Ordinal);
        Assert.EndsWith("its columns are id, name.", refusal.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void FeedPlaceholder_WithoutAFeed_AndAFeedWithoutAPlaceholder_AreRefused()
    {
        var feed = Load("f.csv", "id\n1\n");

        var noFeed = Assert.Throws<CallSetupException>(() => CallTemplate.Parse("{{feed.id}}", "--data"));
        var unused = Assert.Throws<CallSetupException>(() => CallTemplate.Parse("""{"id":{{seq}}}""", "--data", feed));

        Assert.Contains("'{{feed.id}}' at character 1 takes a column of --data-feed FILE, which is not given", noFeed.Message, StringComparison.Ordinal);
        Assert.Contains("has no {{feed.COLUMN}} placeholder to take --data-feed", unused.Message, StringComparison.Ordinal);
    }

    private static double AllocatedPerRender(CallTemplate template)
    {
        const int Renders = 2000;
        template.Render(1, 1, Random.Shared);
        var before = GC.GetAllocatedBytesForCurrentThread();
        for (var i = 0; i < Renders; i++)
        {
            template.Render(i, 1, Random.Shared);
        }

        return (GC.GetAllocatedBytesForCurrentThread() - before) / (double)Renders;
    }

    private DataFeed Load(string name, string content) => DataFeed.Load(Write(name, content), DataFeedOrder.Circular);

    private string Write(string name, string content)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, content);
        return path;
    }
}
