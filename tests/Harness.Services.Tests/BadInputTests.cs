using System.Net;
using System.Net.Http.Headers;
using System.ServiceModel;
using System.Text.Json;
using Grpc.Core;
using Harness.Contracts;
using Harness.ServiceDefaults;
using Harness.ThirdPartyStub;

namespace Harness.Services.Tests;

/// <summary>Out-of-range arguments and broken messages get the stack's proper error, and the service keeps serving.</summary>
public sealed class BadInputTests
{
    public static TheoryData<string, string> OutOfRangeCalls() => new()
    {
        { "iterations=0", "Workloads__MaxIterations" },
        { "iterations=max+1", "Workloads__MaxIterations" },
        { "fanout=0", "Workloads__MaxFanout" },
        { "fanout=65", "Workloads__MaxFanout" },
        { "delayMs=-1", "Workloads__MaxDelayMs" },
        { "delayMs=60001", "Workloads__MaxDelayMs" },
        { "parallelism=-1", "Workloads__MaxFanout" },
        { "style=nap", "blocking, async, thread-sleep, task-wait, task-delay" },
    };

    [Theory]
    [MemberData(nameof(OutOfRangeCalls))]
    public async Task Grpc_OutOfRangeArgument_IsInvalidArgumentNamingTheLimit(string call, string expectedInMessage)
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, "threadpool", "--Workloads:MaxIterations=1000000");
        using var client = harness.CreateClient();

        // Act
        var ex = await Assert.ThrowsAsync<RpcException>(() => Invoke(client, call));

        // Assert
        Assert.Equal(StatusCode.InvalidArgument, ex.StatusCode);
        Assert.Contains(expectedInMessage, ex.Status.Detail, StringComparison.Ordinal);
        await AssertStillServes(client);
    }

    [Theory]
    [MemberData(nameof(OutOfRangeCalls))]
    public async Task Soap_OutOfRangeArgument_IsClientFaultNamingTheLimit(string call, string expectedInMessage)
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(Stack.Soap, "iocp", "--Workloads:MaxIterations=1000000");
        using var client = harness.CreateClient();

        // Act
        var ex = await Assert.ThrowsAsync<FaultException>(() => Invoke(client, call));

        // Assert
        Assert.True(ex.Code.IsSenderFault, $"fault code {ex.Code.Name}");
        Assert.Contains(expectedInMessage, ex.Message, StringComparison.Ordinal);
        await AssertStillServes(client);
    }

    [Fact]
    public async Task Grpc_OversizedMessage_IsResourceExhausted()
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(Stack.Grpc, "custompool");
        using var client = harness.CreateClient();
        var hugeStyle = new string('x', 5 * 1024 * 1024);

        // Act
        var ex = await Assert.ThrowsAsync<RpcException>(() => client.CallThirdPartyAsync(1, 1, hugeStyle));

        // Assert
        Assert.Equal(StatusCode.ResourceExhausted, ex.StatusCode);
        await AssertStillServes(client);
    }

    [Fact]
    public async Task Soap_OverLongArgument_IsAClientFaultWithABoundedMessage()
    {
        // Arrange: as long as the reader's string quota (8,192 characters) lets through to the operation.
        await using var harness = await InProcessHarness.StartAsync(Stack.Soap, "threadpool");
        using var client = harness.CreateClient();

        // Act
        var ex = await Assert.ThrowsAsync<FaultException>(() => client.CallThirdPartyAsync(1, 1, new string('x', 8000)));

        // Assert
        Assert.True(ex.Code.IsSenderFault, $"fault code {ex.Code.Name}");
        Assert.EndsWith("…(cut, 8000 chars)'.", ex.Message, StringComparison.Ordinal);
        Assert.True(ex.Message.Length < 400, $"{ex.Message.Length} characters");
        await AssertStillServes(client);
    }

    [Fact]
    public async Task Stub_OverLongDelay_IsBadRequestWithABoundedDetail()
    {
        // Arrange
        await using var stub = StubApp.Build(["--Listen:Port=0", "--Serilog:MinimumLevel:Default=Warning"]);
        await stub.StartAsync();
        using var http = new HttpClient();

        // Act
        using var response = await http.GetAsync(new Uri(stub.GetBoundAddress(), "/delay?ms=" + new string('9', 5000)));

        // Assert
        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        using var problem = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        var detail = problem.RootElement.GetProperty("detail").GetString()!;
        Assert.EndsWith("…(cut, 5000 chars)'.", detail, StringComparison.Ordinal);
        Assert.True(detail.Length < 400, $"{detail.Length} characters");
    }

    [Fact]
    public async Task Soap_OversizedMessage_Is413()
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(Stack.Soap, "threadpool");
        using var client = harness.CreateClient();
        var hugeStyle = new string('x', 100 * 1024);

        // Act
        var ex = await Assert.ThrowsAsync<ProtocolException>(() => client.CallThirdPartyAsync(1, 1, hugeStyle));

        // Assert: WCF names the HTTP status only in its message, "unexpected response: (413) Payload Too Large".
        Assert.Contains("(413)", ex.Message, StringComparison.Ordinal);
        await AssertStillServes(client);
    }

    [Theory]
    [InlineData("text/xml; charset=utf-8", "<not-an-envelope", HttpStatusCode.BadRequest)]
    [InlineData("application/json", "{\"iterations\": 5}", HttpStatusCode.UnsupportedMediaType)]
    public async Task Soap_MalformedOrWrongContentType_IsRejected(string contentType, string body, HttpStatusCode expected)
    {
        // Arrange
        await using var harness = await InProcessHarness.StartAsync(Stack.Soap, "custompool");
        using var raw = new HttpClient();
        using var content = new StringContent(body);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(contentType);
        content.Headers.Add("SOAPAction", "\"http://tempuri.org/IHarnessService/Compute\"");

        // Act
        using var response = await raw.PostAsync(new Uri(harness.ServiceAddress, HarnessContract.SoapPath), content);

        // Assert
        Assert.Equal(expected, response.StatusCode);
        using var client = harness.CreateClient();
        await AssertStillServes(client);
    }

    private static Task Invoke(IHarnessClient client, string call) => call switch
    {
        "iterations=0" => client.ComputeAsync(0),
        "iterations=max+1" => client.ComputeAsync(1_000_001),
        "fanout=0" => client.CallThirdPartyAsync(0, 10, "blocking"),
        "fanout=65" => client.CallThirdPartyAsync(65, 10, "blocking"),
        "delayMs=-1" => client.CallThirdPartyAsync(1, -1, "async"),
        "delayMs=60001" => client.CallThirdPartyAsync(1, 60_001, "async"),
        "parallelism=-1" => client.CallThirdPartyAsync(2, 10, "async", parallelism: -1),
        "style=nap" => client.CallThirdPartyAsync(1, 10, "nap"),
        _ => throw new ArgumentOutOfRangeException(nameof(call), call, null),
    };

    internal static async Task AssertStillServes(IHarnessClient client)
    {
        var reply = await client.ComputeAsync(1000);
        Assert.Equal(89, reply.Result);
        var call = await client.CallThirdPartyAsync(2, 10, "async");
        Assert.Equal(2, call.Calls);
    }
}
