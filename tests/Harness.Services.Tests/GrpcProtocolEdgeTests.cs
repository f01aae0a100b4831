using System.IO.Compression;
using Google.Protobuf;
using Grpc.Core;
using Harness.Contracts.Grpc;
using Microsoft.Extensions.Logging;

namespace Harness.Services.Tests;

/// <summary>
/// A bad gRPC request costs only itself: an argument too long to repeat gets a bounded message, and a request the
/// server cannot read gets a status that says so (never UNKNOWN, never an Error in the log), in every mode, while
/// calls on the same connection go on.
/// </summary>
public sealed class GrpcProtocolEdgeTests
{
    private const string Compute = "/harness.v1.HarnessService/Compute";

    [Fact]
    public async Task OverLongArgument_IsInvalidArgumentWithABoundedMessage_AndTheChannelKeepsServing()
    {
        // Arrange: a call already running on the channel when the bad one is answered.
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, "iocp");
        using var client = harness.CreateClient();
        var running = client.CallThirdPartyAsync(1, 300, "task-delay");

        // Act
        var ex = await Assert.ThrowsAsync<RpcException>(() => client.CallThirdPartyAsync(1, 1, new string('x', 100_000)));

        // Assert: before the bound, the 100,000 characters went into grpc-message, past the client's 64 KiB of headers,
        // and the connection failed with every call on it.
        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.StartsWith("style must be one of: blocking, async, thread-sleep, task-wait, task-delay; got 'xxx", ex.Status.Detail, StringComparison.Ordinal);
        Assert.EndsWith("…(cut, 100000 chars)'.", ex.Status.Detail, StringComparison.Ordinal);
        Assert.True(ex.Status.Detail.Length < 400, $"{ex.Status.Detail.Length} characters");
        Assert.Equal(1, (await running).Calls);
        await BadInputTests.AssertStillServes(client);
        Assert.DoesNotContain(harness.Logs.Entries, entry => entry.Level >= LogLevel.Error);
    }

    [Theory]
    [InlineData("content-type")]
    [InlineData("grpc-encoding")]
    public async Task OverLongHeaderThatGrpcRepeats_IsCutInTheAnswer_AndTheConnectionKeepsServing(string header)
    {
        // Arrange: Grpc.AspNetCore repeats a content type it does not serve, and an encoding it lacks, in grpc-message,
        // where each % of this value becomes three characters: 90 KB of response header, unbounded.
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, "custompool");
        using var wire = new GrpcWire(harness.ServiceAddress);
        string value = header == "content-type" ? "application/x-" + new string('%', 30_000) : new string('%', 30_000);
        var running = wire.SendAsync("/harness.v1.HarnessService/CallThirdParty", GrpcWire.Frame(new CallThirdPartyRequest { Fanout = 1, DelayMs = 300, Style = "task-delay" }.ToByteArray()));

        // Act
        var response = await wire.SendAsync(Compute, GrpcWire.Frame(new ComputeRequest { Iterations = 1 }.ToByteArray(), flag: 1), request =>
        {
            if (header == "content-type")
            {
                request.Content!.Headers.Remove("Content-Type");
                request.Content.Headers.TryAddWithoutValidation("Content-Type", value);
            }
            else
            {
                request.Headers.TryAddWithoutValidation("grpc-encoding", value);
            }
        });

        // Assert
        (int http, StatusCode status, string end) = header == "content-type"
            ? (415, StatusCode.Internal, $"…(cut, {value.Length} chars)' is not supported.")
            : (200, StatusCode.Unimplemented, $"…(cut, {value.Length} chars)'. Supported encodings: identity, gzip, deflate");
        Assert.Equal(http, response.HttpStatus);
        Assert.Equal(((int)status).ToString(System.Globalization.CultureInfo.InvariantCulture), response.GrpcStatus);
        Assert.EndsWith(end, response.GrpcMessage, StringComparison.Ordinal);
        Assert.True(response.GrpcMessage!.Length < 500, $"{response.GrpcMessage.Length} characters");
        Assert.Equal("0", (await running).GrpcStatus);
        Assert.Equal("0", (await wire.SendAsync(Compute, GrpcWire.Frame(new ComputeRequest { Iterations = 1000 }.ToByteArray()))).GrpcStatus);
    }

    public static TheoryData<string> Modes() => ["threadpool", "iocp", "custompool"];

    [Theory]
    [MemberData(nameof(Modes))]
    public async Task UnreadableRequests_GetADeliberateStatus_NoErrorIsLogged_AndTheConnectionKeepsServing(string mode)
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, mode);
        using var wire = new GrpcWire(harness.ServiceAddress);
        byte[] valid = new ComputeRequest { Iterations = 1000 }.ToByteArray();

        // Act: every case on one connection.
        var answers = new List<(string Case, WireResponse Response, StatusCode Expected)>();
        foreach (var (name, body, encoding, expected) in Cases(valid))
        {
            var response = await wire.SendAsync(Compute, body, r =>
            {
                if (encoding is not null)
                {
                    r.Headers.Add("grpc-encoding", encoding);
                }
            });
            answers.Add((name, response, expected));
        }

        var after = await wire.SendAsync(Compute, GrpcWire.Frame(valid));

        // Assert
        Assert.All(answers, a => Assert.True(
            a.Response.GrpcStatus == ((int)a.Expected).ToString(System.Globalization.CultureInfo.InvariantCulture),
            $"{mode}, {a.Case}: expected {a.Expected}, got HTTP {a.Response.HttpStatus}, grpc-status {a.Response.GrpcStatus} '{a.Response.GrpcMessage}'"));
        Assert.Contains("is not a valid ComputeRequest message", answers[0].Response.GrpcMessage, StringComparison.Ordinal);
        Assert.Equal("0", after.GrpcStatus);
        Assert.DoesNotContain(harness.Logs.Entries, entry => entry.Level >= LogLevel.Error);
        using var client = harness.CreateClient();
        await BadInputTests.AssertStillServes(client);
    }

    /// <summary>What Grpc.AspNetCore alone answered with UNKNOWN and an Error, and two it always answered well, as controls.</summary>
    private static IEnumerable<(string Name, byte[] Body, string? Encoding, StatusCode Expected)> Cases(byte[] valid)
    {
        yield return ("a body that is not protobuf (00 00 00 00 03 ff ff ff)", [0, 0, 0, 0, 3, 0xFF, 0xFF, 0xFF], null, StatusCode.Internal);
        yield return ("a compressed flag of 2", GrpcWire.Frame(valid, flag: 2), null, StatusCode.Internal);
        yield return ("a length of 2 GiB", GrpcWire.Frame(valid, length: 0x8000_0000), null, StatusCode.ResourceExhausted);
        yield return ("gzip-flagged bytes that are not gzip", GrpcWire.Frame(valid, flag: 1), "gzip", StatusCode.Internal);
        yield return ("deflate-flagged bytes that are not deflate", GrpcWire.Frame([0xFF, 0xFF, 0xFF, 0xFF], flag: 1), "deflate", StatusCode.Internal);
        yield return ("control: a frame cut short", GrpcWire.Frame(valid, length: 9), null, StatusCode.Internal);
        yield return ("control: a valid message, gzip-compressed", GrpcWire.Frame(Gzip(valid), flag: 1), "gzip", StatusCode.OK);
    }

    private static byte[] Gzip(byte[] data)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(output, CompressionLevel.Fastest))
        {
            gzip.Write(data);
        }

        return output.ToArray();
    }
}
