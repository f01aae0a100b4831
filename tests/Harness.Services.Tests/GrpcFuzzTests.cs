using System.Collections.Concurrent;
using System.Globalization;
using System.IO.Compression;
using System.Net.Http.Headers;
using System.Text;
using Google.Protobuf;
using Harness.Contracts.Grpc;
using Microsoft.Extensions.Logging;
using Xunit.Abstractions;

namespace Harness.Services.Tests;

/// <summary>
/// Random and mutated gRPC requests over raw HTTP/2: frames, lengths, flags, compression, headers and field values.
/// Each must get a deliberate status (never UNKNOWN, which Grpc.AspNetCore gives an exception nobody handled), nothing
/// may be logged as an Error, and the channel opened before them and the connection that carried them must keep
/// serving. The generator is seeded, so a failure names the case that reproduces it.
/// </summary>
public sealed class GrpcFuzzTests(ITestOutputHelper output)
{
    private const int Seed = 20261124;
    private const int Cases = 300;
    private const int InFlight = 8;

    // The longest header value a case sends, within Kestrel's 32 KiB of request headers.
    private const int LongestHeader = 30_000;

    // Every message is short or cuts what it repeats of the request: 256 characters and a marker.
    private const int LongestMessage = 1_000;

    private static readonly string[] Paths =
    [
        "/harness.v1.HarnessService/Compute", "/harness.v1.HarnessService/CallThirdParty",
        "/harness.v1.HarnessService/Nope", "/nope.v1.Nope/Call",
    ];

    private static readonly string[] Styles = ["", "async", "task-delay", "task-wait", "thread-sleep", "blocking", "nap", "ASYNC ", "\u00e9\u4e2d\U0001F600"];

    private static readonly string[] ContentTypes =
    [
        "application/grpc+proto", "application/grpc; charset=utf-8", "application/json", "application/grpc-web", "text/plain",
    ];

    private static readonly string[] Timeouts = ["1S", "100m", "1n", "abc", "99999999H", "-1S", "5u"];

    private static readonly string[] Encodings = ["gzip", "deflate", "identity", "br", "gzip, deflate"];

    [Fact]
    public async Task RandomAndMutatedRequests_AllGetADeliberateStatus_NoErrorIsLogged_AndTheChannelKeepsServing()
    {
        // Arrange: limits that keep any valid request the generator makes cheap.
        await using var harness = await InProcessHarness.StartAsync(
            Stack.Grpc, "iocp", "--Workloads:MaxIterations=100000", "--Workloads:MaxDelayMs=10", "--Workloads:MaxFanout=4");
        using var client = harness.CreateClient();
        await BadInputTests.AssertStillServes(client);
        using var wire = new GrpcWire(harness.ServiceAddress);
        var random = new Random(Seed);
        var cases = Enumerable.Range(0, Cases).Select(i => Generate(random, i)).ToList();

        // Act: a few at a time on the one connection, as a channel's concurrent calls are.
        var failures = new ConcurrentBag<(int Index, string Problem)>();
        var answers = new ConcurrentBag<string>();
        foreach (var batch in cases.Chunk(InFlight))
        {
            await Task.WhenAll(batch.Select(async c =>
            {
                var (answer, problem) = await RunAsync(wire, c);
                answers.Add(answer);
                if (problem is not null)
                {
                    failures.Add((c.Index, $"case {c.Index} (seed {Seed}; {c.Description}): {problem}"));
                }
            }));
        }

        output.WriteLine($"seed {Seed}, {Cases} cases: " + string.Join(", ", answers.GroupBy(a => a).OrderBy(g => g.Key, StringComparer.Ordinal).Select(g => $"{g.Key} ×{g.Count()}")));

        // Assert
        Assert.True(failures.IsEmpty, string.Join(Environment.NewLine, failures.OrderBy(f => f.Index).Select(f => f.Problem)));
        var errors = harness.Logs.Entries.Where(entry => entry.Level >= LogLevel.Error).ToList();
        Assert.True(errors.Count == 0, $"seed {Seed}: {string.Join(Environment.NewLine, errors)}");
        await BadInputTests.AssertStillServes(client);
        var after = await wire.SendAsync(Paths[0], GrpcWire.Frame(new ComputeRequest { Iterations = 1000 }.ToByteArray()));
        Assert.Equal("0", after.GrpcStatus);
    }

    /// <summary>What the server answered, and null when it is an answer it gives on purpose, otherwise what is wrong with it.</summary>
    private static async Task<(string Answer, string? Problem)> RunAsync(GrpcWire wire, FuzzCase c)
    {
        using var abort = new CancellationTokenSource();
        if (c.AbortAfterMs is { } ms)
        {
            abort.CancelAfter(ms);
        }

        WireResponse response;
        try
        {
            response = await wire.SendAsync(c.Path, c.Body, c.Headers, abort.Token);
        }
        catch (OperationCanceledException) when (c.AbortAfterMs is not null)
        {
            return ("aborted by the client", null);
        }
        catch (Exception e) when (e is HttpRequestException or IOException)
        {
            return ("no answer", $"the request failed: {e.Message}");
        }

        string answer = response.GrpcStatus is { } status ? $"grpc-status {status}" : $"HTTP {response.HttpStatus}";
        return (answer, response switch
        {
            { GrpcMessage.Length: > LongestMessage } => $"a grpc-message of {response.GrpcMessage.Length} characters",
            { HttpStatus: 200, GrpcStatus: "2" } => $"UNKNOWN '{response.GrpcMessage}'",
            { HttpStatus: 200, GrpcStatus: { } s } when int.TryParse(s, CultureInfo.InvariantCulture, out var code) && code is >= 0 and <= 16 => null,
            // Grpc.AspNetCore's answer to a content type that is not gRPC's.
            { HttpStatus: 415, GrpcStatus: "13" } => null,
            // Routing's, for a path no service has when the content type is not gRPC's either.
            { HttpStatus: 404, GrpcStatus: null } when Array.IndexOf(Paths, c.Path) >= 2 => null,
            _ => $"HTTP {response.HttpStatus}, grpc-status {response.GrpcStatus ?? "none"} '{response.GrpcMessage}'",
        });
    }

    private static FuzzCase Generate(Random random, int index)
    {
        var steps = new List<string>();
        var path = random.Next(10) switch
        {
            < 5 => Paths[0],
            < 9 => Paths[1],
            _ => Paths[2 + random.Next(2)],
        };
        steps.Add(path);
        byte[] message = path == Paths[1] ? CallThirdParty(random, steps) : Compute(random, steps);
        string? encoding = null;
        byte[] body;
        switch (random.Next(12))
        {
            case 0:
                body = new byte[random.Next(0, 64)];
                random.NextBytes(body);
                steps.Add($"{body.Length} random bytes");
                break;
            case 1:
                (body, encoding) = Compressed(random, message, steps);
                break;
            default:
                body = GrpcWire.Frame(message);
                int mutations = random.Next(5) < 2 ? 0 : random.Next(1, 4);
                for (int m = 0; m < mutations; m++)
                {
                    body = Mutate(random, body, steps);
                }

                break;
        }

        var headers = Headers(random, encoding, steps);
        bool chunked = random.Next(5) == 0;
        int? abortAfterMs = random.Next(20) == 0 ? random.Next(1, 5) : null;
        steps.Add(chunked ? "chunked" : "with length");
        if (abortAfterMs is not null)
        {
            steps.Add($"aborted after {abortAfterMs} ms");
        }

        return new FuzzCase(index, path, body, request =>
        {
            if (chunked)
            {
                // No Content-Length: the body goes out as DATA frames whose end only the last one tells.
                var content = new StreamContent(new MemoryStream(body));
                content.Headers.ContentType = request.Content!.Headers.ContentType;
                request.Content = content;
            }

            foreach (var apply in headers)
            {
                apply(request);
            }
        }, abortAfterMs, string.Join("; ", steps));
    }

    private static byte[] Compute(Random random, List<string> steps)
    {
        int iterations = random.Next(5) == 0 ? Extreme(random) : random.Next(-5, 100_001);
        steps.Add($"iterations {iterations}");
        return new ComputeRequest { Iterations = iterations }.ToByteArray();
    }

    private static byte[] CallThirdParty(Random random, List<string> steps)
    {
        var request = new CallThirdPartyRequest
        {
            Fanout = random.Next(6) == 0 ? Extreme(random) : random.Next(-1, 6),
            DelayMs = random.Next(6) == 0 ? Extreme(random) : random.Next(-1, 5),
            Style = random.Next(4) == 0 ? Text(random) : Styles[random.Next(Styles.Length)],
            Parallelism = random.Next(-1, 6),
        };
        steps.Add($"fanout {request.Fanout}, delay {request.DelayMs}, style of {request.Style.Length} chars, parallelism {request.Parallelism}");
        return request.ToByteArray();
    }

    private static int Extreme(Random random) => new[] { int.MinValue, -1, 0, 1, int.MaxValue }[random.Next(5)];

    private static string Text(Random random)
    {
        if (random.Next(3) == 0)
        {
            return new string('x', random.Next(1_000, 100_001));
        }

        var text = new StringBuilder();
        int length = random.Next(0, 300);
        while (text.Length < length)
        {
            // Letters, punctuation, percent signs (grpc-message escapes them), accents, CJK, emoji.
            text.Append(random.Next(5) switch
            {
                0 => "%",
                1 => "\U0001F600",
                2 => ((char)random.Next(0x4E00, 0x9FFF)).ToString(),
                3 => ((char)random.Next(0xC0, 0x17F)).ToString(),
                _ => ((char)random.Next(0x20, 0x7F)).ToString(),
            });
        }

        return text.ToString();
    }

    private static byte[] Mutate(Random random, byte[] body, List<string> steps)
    {
        int at = body.Length == 0 ? 0 : random.Next(body.Length);
        switch (random.Next(8))
        {
            case 0 when body.Length > 0:
                body = [.. body];
                body[at] ^= (byte)(1 << random.Next(8));
                steps.Add($"bit flip at {at}");
                return body;
            case 1:
                steps.Add($"cut to {at} bytes");
                return body[..at];
            case 2:
                var extra = new byte[random.Next(1, 16)];
                random.NextBytes(extra);
                steps.Add($"{extra.Length} random bytes appended");
                return [.. body, .. extra];
            case 3:
                steps.Add("the frame twice");
                return [.. body, .. body];
            case 4 when body.Length > 0:
                body = [.. body];
                body[0] = (byte)random.Next(256);
                steps.Add($"compressed flag {body[0]}");
                return body;
            case 5 when body.Length >= 5:
                body = [.. body];
                uint length = random.Next(3) switch
                {
                    0 => (uint)random.Next(0, body.Length + 8),
                    1 => 0x8000_0000u + (uint)random.Next(),
                    _ => (uint)random.Next(),
                };
                System.Buffers.Binary.BinaryPrimitives.WriteUInt32BigEndian(body.AsSpan(1), length);
                steps.Add($"length {length}");
                return body;
            case 6:
                steps.Add("empty body");
                return [];
            default:
                byte inserted = (byte)random.Next(256);
                steps.Add($"0x{inserted:X2} inserted at {at}");
                return [.. body[..at], inserted, .. body[at..]];
        }
    }

    private static (byte[] Body, string? Encoding) Compressed(Random random, byte[] message, List<string> steps)
    {
        bool gzip = random.Next(2) == 0;
        using var output = new MemoryStream();
        using (Stream compressor = gzip ? new GZipStream(output, CompressionLevel.Fastest) : new DeflateStream(output, CompressionLevel.Fastest))
        {
            compressor.Write(message);
        }

        byte[] compressed = output.ToArray();
        string? encoding = random.Next(4) switch
        {
            0 => Encodings[random.Next(Encodings.Length)],
            1 when compressed.Length > 2 => Corrupt(random, compressed, gzip ? "gzip" : "deflate"),
            _ => gzip ? "gzip" : "deflate",
        };
        steps.Add($"{(gzip ? "gzip" : "deflate")} data, {compressed.Length} bytes, grpc-encoding {encoding ?? "none"}");
        return (GrpcWire.Frame(compressed, flag: 1), encoding);

        string Corrupt(Random r, byte[] data, string name)
        {
            data[r.Next(data.Length)] ^= 0xFF;
            steps.Add("compressed data corrupted");
            return name;
        }
    }

    private static List<Action<HttpRequestMessage>> Headers(Random random, string? encoding, List<string> steps)
    {
        var headers = new List<Action<HttpRequestMessage>>();
        if (encoding is not null)
        {
            headers.Add(r => r.Headers.Add("grpc-encoding", encoding));
        }

        switch (random.Next(10))
        {
            case 0:
                string type = ContentTypes[random.Next(ContentTypes.Length)];
                steps.Add($"content type {type}");
                headers.Add(r => r.Content!.Headers.ContentType = MediaTypeHeaderValue.Parse(type));
                break;
            case 1:
                steps.Add("no content type");
                headers.Add(r => r.Content!.Headers.ContentType = null);
                break;
            case 2:
                string longType = "application/x-" + new string('%', random.Next(1_000, LongestHeader - 20));
                steps.Add($"a content type of {longType.Length} chars");
                headers.Add(r =>
                {
                    r.Content!.Headers.Remove("Content-Type");
                    r.Content.Headers.TryAddWithoutValidation("Content-Type", longType);
                });
                break;
        }

        if (random.Next(4) == 0)
        {
            string timeout = Timeouts[random.Next(Timeouts.Length)];
            steps.Add($"grpc-timeout {timeout}");
            headers.Add(r => r.Headers.TryAddWithoutValidation("grpc-timeout", timeout));
        }

        if (random.Next(6) == 0)
        {
            // One long header at most, or the two together pass Kestrel's limit and the request is refused before gRPC sees it.
            bool longType = steps.Exists(step => step.StartsWith("a content type of", StringComparison.Ordinal));
            string unused = longType || random.Next(2) == 0 ? Encodings[random.Next(Encodings.Length)] : new string('%', random.Next(1_000, LongestHeader));
            steps.Add($"grpc-encoding of {unused.Length} chars");
            headers.Add(r =>
            {
                r.Headers.Remove("grpc-encoding");
                r.Headers.TryAddWithoutValidation("grpc-encoding", unused);
            });
        }

        if (random.Next(6) == 0)
        {
            steps.Add("metadata, some of it not base64 in a -bin header");
            headers.Add(r =>
            {
                r.Headers.TryAddWithoutValidation("x-fuzz", "a b\tc");
                r.Headers.TryAddWithoutValidation("x-fuzz-bin", "!!not base64!!");
            });
        }

        if (random.Next(8) == 0)
        {
            steps.Add("no te: trailers");
            headers.Add(r => r.Headers.TE.Clear());
        }

        return headers;
    }

    private sealed record FuzzCase(int Index, string Path, byte[] Body, Action<HttpRequestMessage> Headers, int? AbortAfterMs, string Description);
}
