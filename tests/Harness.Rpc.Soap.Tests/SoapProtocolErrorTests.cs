using System.Net;
using System.Text;

namespace Harness.Rpc.Soap.Tests;

/// <summary>Requests the transport or the dispatcher rejects; after each one the server must keep serving.</summary>
[Collection(SoapServerCollection.Name)]
public sealed class SoapProtocolErrorTests(SoapServerFixture server)
{
    private const string Dispatcher = "http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher";

    [Theory]
    [InlineData(false, HttpStatusCode.RequestEntityTooLarge)]
    [InlineData(true, HttpStatusCode.BadRequest)]
    public async Task BodyOverMaxReceivedMessageSize_Is413WhenDeclared_And400WhenChunked_AsInCoreWcf(bool chunked, HttpStatusCode expected)
    {
        string body = EchoEnvelope(new string('x', 4 * SoapServerFixture.SmallLimit));

        RawResponse response = await server.PostAsync(SoapServerFixture.SmallPath, body, "Echo", chunked: chunked);

        Assert.Equal(expected, response.Status);
        Assert.Equal("", response.Body);
        await server.AssertStillServingAsync();
    }

    [Fact]
    public async Task BodyOfExactlyMaxReceivedMessageSize_IsAcceptedWithItsLength_ButNotChunked_AsInCoreWcf()
    {
        // CoreWCF buffers a chunked body in MaxBufferSize bytes and fails once they are full, end of body or not.
        string shell = EchoEnvelope("");
        string body = EchoEnvelope(new string('y', SoapServerFixture.SmallLimit - Encoding.UTF8.GetByteCount(shell)));
        Assert.Equal(SoapServerFixture.SmallLimit, Encoding.UTF8.GetByteCount(body));

        string oneShort = EchoEnvelope(new string('y', SoapServerFixture.SmallLimit - 1 - Encoding.UTF8.GetByteCount(shell)));

        RawResponse declared = await server.PostAsync(SoapServerFixture.SmallPath, body, "Echo");
        RawResponse chunked = await server.PostAsync(SoapServerFixture.SmallPath, body, "Echo", chunked: true);
        RawResponse chunkedOneShort = await server.PostAsync(SoapServerFixture.SmallPath, oneShort, "Echo", chunked: true);

        Assert.Equal(HttpStatusCode.OK, declared.Status);
        Assert.Equal(HttpStatusCode.BadRequest, chunked.Status);
        Assert.Equal("", chunked.Body);
        Assert.Equal(HttpStatusCode.OK, chunkedOneShort.Status);
    }

    [Fact]
    public async Task OversizedCall_ThroughTheClient_IsASoapProtocolException()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.SmallPath);

        SoapProtocolException error = await Assert.ThrowsAsync<SoapProtocolException>(
            () => client.InvokeAsync<EchoMessage, EchoMessage>("Echo", new EchoMessage { Text = new string('z', 2 * SoapServerFixture.SmallLimit) }));

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, error.StatusCode);
        await server.AssertStillServingAsync();
    }

    [Theory]
    [InlineData("application/json")]
    [InlineData("application/soap+xml; charset=utf-8")]
    [InlineData("text/xml; charset=iso-8859-1")]
    [InlineData(null)]
    public async Task ContentTypeOtherThanTextXml_Is415(string? contentType)
    {
        RawResponse response = await server.PostAsync(SoapServerFixture.CalculatorPath, ComputeEnvelope(2), contentType: contentType);

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.Status);
        await server.AssertStillServingAsync();
    }

    [Theory]
    [InlineData("this is not xml")]
    [InlineData("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body")]
    [InlineData("<s:Envelope xmlns:s=\"http://www.w3.org/2003/05/soap-envelope\"><s:Body><Compute xmlns=\"http://tempuri.org/\"/></s:Body></s:Envelope>")]
    [InlineData("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><Compute xmlns=\"http://tempuri.org/\"/></s:Envelope>")]
    [InlineData("")]
    [InlineData("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:")]
    [InlineData("<?xml version=\"1.0\" encoding=")]
    public async Task MalformedXmlOrNotASoap11Envelope_Is400(string body)
    {
        RawResponse response = await server.PostAsync(SoapServerFixture.CalculatorPath, body);

        Assert.Equal(HttpStatusCode.BadRequest, response.Status);
        Assert.Equal("", response.Body);
        await server.AssertStillServingAsync();
    }

    [Fact]
    public async Task QuotaExceededInTheHeaders_Is400()
    {
        // MaxDepth is 32 counted from the envelope; the header nests 40 deep.
        string deep = string.Concat(Enumerable.Repeat("<n>", 40)) + string.Concat(Enumerable.Repeat("</n>", 40));

        RawResponse response = await server.PostAsync(
            SoapServerFixture.CalculatorPath,
            SoapServerFixture.Envelope("<Compute xmlns=\"http://tempuri.org/\"><iterations>1</iterations></Compute>", deep));

        Assert.Equal(HttpStatusCode.BadRequest, response.Status);
        await server.AssertStillServingAsync();
    }

    [Theory]
    [InlineData("<iterations>5</iter")]
    [InlineData("<iterations>5</iterations><s:")]
    public async Task MalformedXmlInsideTheBody_IsWcfsDeserializationFailedFault(string truncatedPayload)
    {
        // WCF parses the envelope and headers up front but the body only in the operation formatter.
        RawResponse response = await server.PostAsync(
            SoapServerFixture.CalculatorPath,
            "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><Compute xmlns=\"http://tempuri.org/\">" + truncatedPayload);

        Assert.Equal(HttpStatusCode.InternalServerError, response.Status);
        (string ns, string name, string reason) = response.Fault();
        Assert.Equal((Dispatcher, "DeserializationFailed"), (ns, name));
        Assert.StartsWith(
            "The formatter threw an exception while trying to deserialize the message: Error in deserializing body of request message for operation 'Compute'.",
            reason);
        await server.AssertStillServingAsync();
    }

    [Fact]
    public async Task StringOverMaxStringContentLength_IsADeserializationFailedFault_AndTheLimitItselfPasses()
    {
        SoapClient client = server.CreateClient(SoapServerFixture.CalculatorPath);

        EchoMessage atQuota = await client.InvokeAsync<EchoMessage, EchoMessage>("Echo", new EchoMessage { Text = new string('q', 8192) });
        SoapFaultException fault = await Assert.ThrowsAsync<SoapFaultException>(
            () => client.InvokeAsync<EchoMessage, EchoMessage>("Echo", new EchoMessage { Text = new string('q', 8193) }));

        Assert.Equal(8192, atQuota.Text.Length);
        Assert.Equal(SoapFaultCode.Client, fault.Code);
        Assert.Equal((Dispatcher, "DeserializationFailed"), (fault.FaultCode.Namespace, fault.FaultCode.Name));
        Assert.Contains("(8192)", fault.Reason);
        Assert.Contains("MaxStringContentLength", fault.Reason);
        await server.AssertStillServingAsync();
    }

    private static string ComputeEnvelope(int iterations) =>
        SoapServerFixture.Envelope($"<Compute xmlns=\"http://tempuri.org/\"><iterations>{iterations}</iterations></Compute>");

    private static string EchoEnvelope(string text) =>
        SoapServerFixture.Envelope($"<Echo xmlns=\"http://tempuri.org/\"><text>{text}</text></Echo>");
}
