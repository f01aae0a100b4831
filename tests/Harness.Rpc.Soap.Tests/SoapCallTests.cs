using System.Net;
using System.Xml.Linq;

namespace Harness.Rpc.Soap.Tests;

[Collection(SoapServerCollection.Name)]
public sealed class SoapCallTests(SoapServerFixture server)
{
    private const string Soap11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private const string Dispatcher = "http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher";
    private const string AddressingNone = "http://schemas.microsoft.com/ws/2005/05/addressing/none";

    [Fact]
    public void SyncOperation_RunsInlineOnAPoolThreadWithoutContext_AndReturnsItsResult()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.CalculatorPath);

        ComputeResponse response = client.Invoke<ComputeRequest, ComputeResponse>("Compute", new ComputeRequest { Iterations = 10 });

        Assert.Equal(55, response.Sum);
        Assert.Equal("none", response.ContextBefore);
        Assert.True(response.PoolThread);
    }

    [Fact]
    public async Task TaskOperation_ReturnsItsResult()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.CalculatorPath);

        ComputeResponse response = await client.InvokeAsync<ComputeRequest, ComputeResponse>("ComputeAsync", new ComputeRequest { Iterations = 100 });

        Assert.Equal(5050, response.Sum);
        Assert.Equal("none", response.ContextAfter);
    }

    [Fact]
    public async Task WireFormat_IsDocumentLiteralWrappedInTheContractNamespace()
    {
        RawResponse response = await server.PostAsync(
            SoapServerFixture.CalculatorPath,
            SoapServerFixture.Envelope("<Compute xmlns=\"http://tempuri.org/\"><iterations>5</iterations></Compute>"));

        Assert.Equal(HttpStatusCode.OK, response.Status);
        Assert.Equal("text/xml; charset=utf-8", response.ContentType);
        XElement envelope = XDocument.Parse(response.Body).Root!;
        Assert.Equal(XName.Get("Envelope", Soap11), envelope.Name);
        XElement reply = envelope.Element(XName.Get("Body", Soap11))!.Elements().Single();
        Assert.Equal(XName.Get("ComputeResponse", "http://tempuri.org/"), reply.Name);
        Assert.Equal("15", reply.Element(XName.Get("sum", "http://tempuri.org/"))!.Value);
    }

    [Theory]
    [InlineData("Fail", true)]
    [InlineData("FailAsync", false)]
    public async Task SoapFaultException_ReachesTheClientWithItsCodeAndReason(string operation, bool clientFault)
    {
        SoapClient client = server.CreateClient(SoapServerFixture.CalculatorPath);
        var request = new FailRequest { Client = clientFault, Reason = "iterations must be positive" };

        SoapFaultException fault = await Assert.ThrowsAsync<SoapFaultException>(
            () => client.InvokeAsync<FailRequest, EchoMessage>(operation, request));

        Assert.Equal(clientFault ? SoapFaultCode.Client : SoapFaultCode.Server, fault.Code);
        Assert.Equal("iterations must be positive", fault.Reason);
        Assert.Equal(Soap11, fault.FaultCode.Namespace);
        Assert.Equal(clientFault ? "Client" : "Server", fault.FaultCode.Name);
        Assert.Null(fault.Detail);

        RawResponse raw = await server.PostAsync(
            SoapServerFixture.CalculatorPath,
            SoapServerFixture.Envelope($"<{operation} xmlns=\"http://tempuri.org/\"><client>{(clientFault ? "true" : "false")}</client><reason>no</reason></{operation}>"),
            operation);
        Assert.Equal(HttpStatusCode.InternalServerError, raw.Status);
        Assert.Equal((Soap11, clientFault ? "Client" : "Server", "no"), raw.Fault());
    }

    [Fact]
    public void UnhandledException_BecomesWcfsGenericInternalServiceFault()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.CalculatorPath);

        SoapFaultException fault = Assert.Throws<SoapFaultException>(
            () => client.Invoke<EchoMessage, EchoMessage>("Crash", new EchoMessage { Text = "x" }));

        Assert.Equal(SoapFaultCode.Server, fault.Code);
        Assert.Equal(Dispatcher, fault.FaultCode.Namespace);
        Assert.Equal("InternalServiceFault", fault.FaultCode.Name);
        Assert.StartsWith("The server was unable to process the request due to an internal error.  For more information", fault.Reason);
        Assert.DoesNotContain("hunter2", fault.Reason);
        Assert.Null(fault.Detail);
    }

    [Fact]
    public void UnhandledException_WithIncludeExceptionDetailInFaults_CarriesTheException()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.DebugPath);

        SoapFaultException fault = Assert.Throws<SoapFaultException>(
            () => client.Invoke<EchoMessage, EchoMessage>("Crash", new EchoMessage { Text = "x" }));

        Assert.Equal("InternalServiceFault", fault.FaultCode.Name);
        Assert.Equal(TestService.CrashMessage, fault.Reason);
        Assert.NotNull(fault.Detail);
        Assert.Equal("System.InvalidOperationException", fault.Detail.Type);
        Assert.Equal(TestService.CrashMessage, fault.Detail.Message);
        Assert.Contains(nameof(TestService), fault.Detail.StackTrace);
    }

    [Fact]
    public async Task UnknownAction_IsWcfsActionNotSupportedFault()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.CalculatorPath);

        SoapFaultException fault = await Assert.ThrowsAsync<SoapFaultException>(
            () => client.InvokeAsync<ComputeRequest, ComputeResponse>("Divide", new ComputeRequest()));

        Assert.Equal(SoapFaultCode.Client, fault.Code);
        Assert.Equal(AddressingNone, fault.FaultCode.Namespace);
        Assert.Equal("ActionNotSupported", fault.FaultCode.Name);
        Assert.StartsWith(
            "The message with Action 'http://tempuri.org/Calculator/Divide' cannot be processed at the receiver, due to a ContractFilter mismatch at the EndpointDispatcher.",
            fault.Reason);
        await server.AssertStillServingAsync();
    }

    [Fact]
    public async Task MissingSoapAction_IsNotDispatchedByBodyElement_AndFaultsWithAnEmptyAction()
    {
        RawResponse response = await server.PostAsync(
            SoapServerFixture.CalculatorPath,
            SoapServerFixture.Envelope("<Compute xmlns=\"http://tempuri.org/\"><iterations>5</iterations></Compute>"),
            operation: null);

        Assert.Equal(HttpStatusCode.InternalServerError, response.Status);
        (string ns, string name, string reason) = response.Fault();
        Assert.Equal((AddressingNone, "ActionNotSupported"), (ns, name));
        Assert.StartsWith("The message with Action '' cannot be processed", reason);
        await server.AssertStillServingAsync();
    }

    [Fact]
    public void ActionFor_FollowsWcfsDefaultActionRule()
    {
        Assert.Equal("http://tempuri.org/Calculator/Compute", new SoapContract("Calculator").ActionFor("Compute"));
        Assert.Equal("urn:harness/Calculator/Compute", new SoapContract("Calculator", "urn:harness").ActionFor("Compute"));
        Assert.Equal("urn:Calculator/Compute", new SoapContract("Calculator", "").ActionFor("Compute"));
    }

    [Fact]
    public void MappedContract_IsFrozen()
    {
        SoapContract contract = TestService.CreateContract();
        contract.Freeze();

        Assert.Throws<InvalidOperationException>(() => contract.AddOperation<EchoMessage, EchoMessage>("Late", m => m));
    }
}
