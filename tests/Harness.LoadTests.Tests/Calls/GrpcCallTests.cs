namespace Harness.LoadTests.Tests.Calls;

/// <summary>
/// <c>harness run --call</c> against a gRPC server the project did not write (@grpc/grpc-js, Calls/NodeServers): by
/// method name through its reflection service and through <c>--proto</c>, its unary and its three streaming methods,
/// and the refusals before any load.
/// </summary>
[Trait("Category", "EndToEnd")]
public sealed class GrpcCallTests(GreeterServers servers) : IClassFixture<GreeterServers>
{
    private const string SayHello = "helloworld.Greeter/SayHello";

    [Fact]
    public async Task ByReflection_LoadsTheMethod_WithTemplatedDataAndMetadata_AndReportsItsSeries()
    {
        // Act: a name per user and a random count per call; the server refuses calls without the key.
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={servers.WithReflection}", "--call", SayHello, "--data", """{"name":"user-{{user}}","times":{{rand 1 3}},"mood":"HAPPY"}""",
             "--metadata", $"x-api-key={GreeterServers.Key}", "--show-reply", .. CallRuns.Short]);

        // Assert: the reply decoded with the reflection's descriptors too, whose map entry (labels) protoc would refuse as written.
        CallRuns.AssertServedWithoutErrors(run, "grpc-say-hello-external");
        Assert.Contains("message: \"Hello user-1\"", run.Output, StringComparison.Ordinal);
        Assert.Equal(SayHello, run.Series!.Parameters["call"]);
        Assert.Equal("""{"name":"user-{{user}}","times":{{rand 1 3}},"mood":"HAPPY"}""", run.Series.Parameters["data"]);
        Assert.Contains("grpc.reflection.v1", run.Series.Parameters["descriptors"], StringComparison.Ordinal);
        Assert.Equal("say-hello", run.Series.Operation);

        // grpc-js has no /metrics where the harness's own services keep theirs: said once, not an outage.
        Assert.Contains(run.Events, e => e.Kind == "note" && e.Message.Contains("no server metrics", StringComparison.Ordinal));
    }

    [Fact]
    public async Task DataFeed_EachCallTakesARow_EscapedInsideTheJsonString()
    {
        // Arrange: 10,000 rows whose names need CSV quoting (the comma, the quotes) and JSON escaping (a quote, a
        // backslash); the server refuses any other name, so no failure means every name came from the feed, intact.
        var feed = Path.Combine(HarnessRun.TempFolder(), "names.csv");
        await File.WriteAllLinesAsync(feed, ["times,name", .. Enumerable.Range(1, 10_000).Select(i => $"{i % 5},\"feed-{i} \"\"q\"\", \\\"")]);
        using var server = await NodeServer.StartAsync("grpc-server.js", GreeterServers.Proto, "--name-pattern", @"^feed-([1-9]\d{0,3}|10000) ""q"", \\$");

        // Act
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc=http://127.0.0.1:{server.Port}", "--call", SayHello, "--data", """{"name":"{{feed.name}}","times":{{feed.times}}}""",
             "--data-feed", feed, .. CallRuns.Short]);

        // Assert
        CallRuns.AssertServedWithoutErrors(run, "grpc-say-hello-external");
        Assert.Equal($"{feed} (10000 rows, circular)", run.Series!.Parameters["dataFeed"]);
    }

    [Fact]
    public async Task ByProto_LoadsAServerWithoutReflection()
    {
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={servers.WithoutReflection}", "--call", SayHello, "--proto", GreeterServers.Proto, "--data", """{"name":"x"}""",
             "--show-reply", .. CallRuns.Short]);

        CallRuns.AssertServedWithoutErrors(run, "grpc-say-hello-external");
        Assert.Contains("message: \"Hello x\"", run.Output, StringComparison.Ordinal);
        Assert.Equal($"--proto {GreeterServers.Proto}", run.Series!.Parameters["descriptors"]);
    }

    [Fact]
    public async Task NoReflectionAndNoProto_IsRefused_SayingToGiveProto()
    {
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync("--target", $"grpc={servers.WithoutReflection}", "--call", SayHello));

        Assert.Contains("has no reflection service", line, StringComparison.Ordinal);
        Assert.Contains("give --proto FILE", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task UnreachableReflection_IsRefused_SayingToGiveProto()
    {
        // Port 1: nothing listens there, so the reflection cannot even be asked.
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync("--target", "grpc=http://127.0.0.1:1", "--call", SayHello));

        Assert.Contains("could not be asked for its reflection (Unavailable", line, StringComparison.Ordinal);
        Assert.Contains("give --proto FILE", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task UnknownMethod_IsRefused_ListingTheServicesMethods()
    {
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync("--target", $"grpc={servers.WithReflection}", "--call", "helloworld.Greeter/SayGoodbye"));

        Assert.Contains("helloworld.Greeter has no method SayGoodbye; its methods are SayHello, SayHellos, CountHellos, Chat", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task UnknownService_IsRefused_ListingTheServicesTheReflectionKnows()
    {
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync("--target", $"grpc={servers.WithReflection}", "--call", "helloworld.Greeters/SayHello"));

        Assert.Contains("knows no service helloworld.Greeters; it lists", line, StringComparison.Ordinal);
        Assert.Contains("helloworld.Greeter", line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ServerStream_RecordsEachCallsMessages_TheTimeToTheFirst_AndTheGapsBetweenThem()
    {
        // Act: each call asks for 5 replies.
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={servers.WithoutReflection}", "--call", "helloworld.Greeter/SayHellos", "--proto", GreeterServers.Proto,
             "--data", """{"name":"s-{{seq}}","times":5}""", "--show-reply", .. CallRuns.Short]);

        // Assert
        CallRuns.AssertServedWithoutErrors(run, "grpc-say-hellos-external");
        var streams = CallRuns.AssertStreamsRecorded(run);
        Assert.Equal(streams.Calls, streams.MessagesSent);
        Assert.Equal(5 * streams.Calls, streams.MessagesReceived);
        Assert.Equal(streams.Calls, streams.FirstMessage.TotalCount);
        Assert.Equal(4 * streams.Calls, streams.MessageGap.TotalCount);
        Assert.Equal("server-streaming", run.Series!.Parameters["shape"]);
        Assert.Contains("a stream: 1 message(s) sent, 5 received; the first reply", run.Output, StringComparison.Ordinal);
        Assert.Contains("message: \"Hello s-1 #1\"", run.Output, StringComparison.Ordinal);
        Assert.Contains("Streams:", run.Output, StringComparison.Ordinal);
        Assert.Contains("5.00 received", run.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ClientStream_SendsEachElementOfTheArray_AndBidirectional_ReadsAReplyPerMessage()
    {
        // Act: three messages a call, templated per message; the server refuses a stream with an empty name.
        const string Data = """[{"name":"a-{{seq}}"},{"name":"b"},{"name":"c-{{user}}"}]""";
        var client = await CallRuns.RunAsync(
            ["--target", $"grpc={servers.WithoutReflection}", "--call", "helloworld.Greeter/CountHellos", "--proto", GreeterServers.Proto, "--data", Data, "--show-reply",
             .. CallRuns.Short]);
        var bidirectional = await CallRuns.RunAsync(
            ["--target", $"grpc={servers.WithReflection}", "--call", "helloworld.Greeter/Chat", "--data", Data, "--stream-interval", "1ms", .. CallRuns.Short]);

        // Assert
        CallRuns.AssertServedWithoutErrors(client, "grpc-count-hellos-external");
        var sent = CallRuns.AssertStreamsRecorded(client);
        Assert.Equal((3 * sent.Calls, sent.Calls, 0L), (sent.MessagesSent, sent.MessagesReceived, sent.MessageGap.TotalCount));
        Assert.Contains("message: \"3 hellos: a-1,b,c-1\"", client.Output, StringComparison.Ordinal);
        Assert.Equal("client-streaming", client.Series!.Parameters["shape"]);

        CallRuns.AssertServedWithoutErrors(bidirectional, "grpc-chat-external");
        var chat = CallRuns.AssertStreamsRecorded(bidirectional);
        Assert.Equal((3 * chat.Calls, 3 * chat.Calls, 2 * chat.Calls), (chat.MessagesSent, chat.MessagesReceived, chat.MessageGap.TotalCount));
        Assert.Equal("1ms", bidirectional.Series!.Parameters["streamInterval"]);

        // A reply comes only after its request, and requests are at least 1 ms apart: so, mostly, are the replies (half of it asked).
        Assert.True(chat.MessageGap.ValueAtPercentile(50) >= 500, $"median gap {chat.MessageGap.ValueAtPercentile(50)} µs");
    }

    [Fact]
    public async Task AServerStreamThatNeverEnds_FailsEachCallAtItsDeadline_AndCountsNoneOfItsMessages()
    {
        // Act: a reply a millisecond, for ever; each call is given 300 ms.
        var run = await CallRuns.RunAsync(
            ["--target", $"grpc={servers.WithoutReflection}", "--call", "helloworld.Greeter/SayHellos", "--proto", GreeterServers.Proto,
             "--data", """{"name":"x","times":-1}""", "--timeout", "300ms", .. CallRuns.Short]);

        // Assert: the run ends, every call failed at its deadline (or was given up at the series' end), and no stream
        // is recorded for a failed call. Grpc.Net.Client may read a deadline's abort as UNAVAILABLE first
        // (Grpc/DeadlineAbort): such a call is counted at its deadline too.
        Assert.NotNull(run.Series);
        var requests = run.Seconds.Sum(s => s.Requests);
        var byStatus = run.Seconds.SelectMany(s => s.StatusCounts).GroupBy(c => c.Key).ToDictionary(g => g.Key, g => g.Sum(c => c.Value));
        var statuses = string.Join(", ", byStatus.Select(c => $"{c.Key}={c.Value}"))
            + "; " + string.Join("; ", run.Events.Where(e => e.Message.StartsWith("first ", StringComparison.Ordinal)).Select(e => e.Message));
        Assert.True(requests > 0 && run.Seconds.Sum(s => s.Failures) == requests, $"{requests} requests: {statuses}");
        Assert.True(byStatus.Keys.All(k => k is "DEADLINE_EXCEEDED" or "in-flight-at-end") && byStatus.ContainsKey("DEADLINE_EXCEEDED"), statuses);
        Assert.All(run.Seconds, s => Assert.Null(s.Stream));
    }

    [Theory]
    [InlineData("helloworld.Greeter/SayHello", """[{"name":"x"}]""", "--data is a JSON array, a stream of messages, but helloworld.Greeter/SayHello is unary and takes one helloworld.HelloRequest")]
    [InlineData("helloworld.Greeter/Chat", """[{"name":"x"},{"nam":"y"}]""", "--data does not fit helloworld.HelloRequest: [1]: helloworld.HelloRequest has no field 'nam'")]
    public async Task StreamData_ThatDoesNotFit_IsRefused_NamingTheMessage(string call, string data, string expected)
    {
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync(
            "--target", $"grpc={servers.WithoutReflection}", "--call", call, "--proto", GreeterServers.Proto, "--data", data));

        Assert.Contains(expected, line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task StreamInterval_OnAMethodThatSendsOneRequest_IsRefused()
    {
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync(
            "--target", $"grpc={servers.WithoutReflection}", "--call", "helloworld.Greeter/SayHellos", "--proto", GreeterServers.Proto,
            "--data", """{"name":"x"}""", "--stream-interval", "5ms"));

        Assert.Contains("--stream-interval spaces the request messages of a client-streaming or bidirectional method, but helloworld.Greeter/SayHellos is server-streaming", line, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("""{"nam":"x"}""", "helloworld.HelloRequest has no field 'nam'; its fields are name, times, tags, mood, labels")]
    [InlineData("""{"times":"many"}""", "field 'times' takes an int32, not the string \"many\"")]
    [InlineData("""{"mood":"SAD"}""", "field 'mood' is a helloworld.Mood, which has no value \"SAD\"; its values are MOOD_UNSPECIFIED, HAPPY, GRUMPY")]
    [InlineData("""{"times":{{rand 1 3000000000}}}""", "field 'times' takes an int32 (-2147483648 to 2147483647), not the number 3000000000")]
    [InlineData("""{"name":"x",""", "--data does not fit helloworld.HelloRequest: is not JSON")]
    public async Task DataThatDoesNotFitTheMessage_IsRefused_NamingTheField(string data, string expected)
    {
        var line = CallRuns.AssertRefused(await CallRuns.RunAsync(
            "--target", $"grpc={servers.WithoutReflection}", "--call", SayHello, "--proto", GreeterServers.Proto, "--data", data));

        Assert.Contains(expected, line, StringComparison.Ordinal);
    }
}
