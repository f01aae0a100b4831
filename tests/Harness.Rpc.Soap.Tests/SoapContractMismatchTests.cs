using System.Net;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// Bodies and headers that do not match the contract, answered as CoreWCF's DataContractSerializer operation formatter
/// and DispatchOperationRuntime answer them.
/// </summary>
[Collection(SoapServerCollection.Name)]
public sealed class SoapContractMismatchTests(SoapServerFixture server)
{
    private const string Dispatcher = "http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher";
    private const string InternalError = "The server was unable to process the request due to an internal error.";

    [Theory]
    [InlineData("<Compute xmlns=\"urn:wrong\"><iterations>2</iterations></Compute>", "Element", "Compute", "urn:wrong")]
    [InlineData("<Calc xmlns=\"http://tempuri.org/\"><iterations>2</iterations></Calc>", "Element", "Calc", "http://tempuri.org/")]
    [InlineData("<t:Echo xmlns:t=\"http://tempuri.org/\"><t:text>hi</t:text></t:Echo>", "Element", "t:Echo", "http://tempuri.org/")]
    [InlineData("just text", "Text", "", "")]
    public async Task BodyThatIsNotTheRequestWrapper_IsAnInternalServiceFault(string body, string nodeType, string name, string ns)
    {
        RawResponse plain = await server.PostAsync(SoapServerFixture.CalculatorPath, SoapServerFixture.Envelope(body));
        RawResponse debug = await server.PostAsync(SoapServerFixture.DebugPath, SoapServerFixture.Envelope(body));

        Assert.Equal(HttpStatusCode.InternalServerError, plain.Status);
        (string faultNs, string code, string reason) = plain.Fault();
        Assert.Equal((Dispatcher, "InternalServiceFault"), (faultNs, code));
        Assert.StartsWith(InternalError, reason);
        Assert.Equal(
            "Error in deserializing body of request message for operation 'Compute'. OperationFormatter encountered an invalid " +
            "Message body. Expected to find node type 'Element' with name 'Compute' and namespace 'http://tempuri.org/'. " +
            $"Found node type '{nodeType}' with name '{name}' and namespace '{ns}'",
            debug.Fault().Reason);
        await server.AssertStillServingAsync();
    }

    [Fact]
    public async Task MandatoryHeader_IsAnInternalServiceFault_AfterTheBodyIsRead_WhileOptionalHeadersAreIgnored()
    {
        const string body = "<Compute xmlns=\"http://tempuri.org/\"><iterations>3</iterations></Compute>";
        const string mandatory = "<Security xmlns=\"urn:test\" s:mustUnderstand=\"1\">token</Security>";

        RawResponse notUnderstood = await server.PostAsync(SoapServerFixture.DebugPath, SoapServerFixture.Envelope(body, mandatory));
        RawResponse badBodyFirst = await server.PostAsync(
            SoapServerFixture.CalculatorPath, SoapServerFixture.Envelope("<Compute xmlns=\"http://tempuri.org/\"><iterations>x</iterations></Compute>", mandatory));
        RawResponse unknownAction = await server.PostAsync(SoapServerFixture.CalculatorPath, SoapServerFixture.Envelope(body, mandatory), "Divide");
        RawResponse optional = await server.PostAsync(
            SoapServerFixture.CalculatorPath, SoapServerFixture.Envelope(body, "<Trace xmlns=\"urn:test\" s:mustUnderstand=\"0\">id</Trace>"));

        (string ns, string code, string reason) = notUnderstood.Fault();
        Assert.Equal((Dispatcher, "InternalServiceFault"), (ns, code));
        Assert.StartsWith("The header 'Security' from the namespace 'urn:test' was not understood", reason);
        // CoreWCF deserializes before it checks headers; an unknown action fails the contract filter before any operation.
        Assert.Equal((Dispatcher, "DeserializationFailed"), (badBodyFirst.Fault().Namespace, badBodyFirst.Fault().Name));
        Assert.Equal((SoapNames.AddressingNoneNamespace, "ActionNotSupported"), (unknownAction.Fault().Namespace, unknownAction.Fault().Name));
        Assert.Equal(HttpStatusCode.OK, optional.Status);
        Assert.Contains("<sum>6</sum>", optional.Body);
    }

    [Theory]
    // CoreWCF's MessageHeaders.GetHeadersNotUnderstood takes every mandatory header, whatever its actor.
    [InlineData("s:actor=\"urn:some-other-node\" s:mustUnderstand=\"1\"", HttpStatusCode.InternalServerError)]
    [InlineData("s:actor=\"http://schemas.xmlsoap.org/soap/actor/next\" s:mustUnderstand=\"true\"", HttpStatusCode.InternalServerError)]
    [InlineData("s:mustUnderstand=\" 1 \"", HttpStatusCode.InternalServerError)]
    [InlineData("s:actor=\"urn:some-other-node\" s:mustUnderstand=\"0\"", HttpStatusCode.OK)]
    [InlineData("s:actor=\"urn:some-other-node\"", HttpStatusCode.OK)]
    [InlineData("mustUnderstand=\"1\"", HttpStatusCode.OK)]
    // Its MessageHeader.ToBoolean raises an XmlException for anything XmlConvert cannot read, while the headers are read.
    [InlineData("s:mustUnderstand=\"yes\"", HttpStatusCode.BadRequest)]
    public async Task HeaderAttributes_DecideAsCoreWcfsMessageHeadersDo(string attributes, HttpStatusCode expected)
    {
        string header = $"<Routing xmlns=\"urn:test\" {attributes}>hop</Routing>";

        RawResponse response = await server.PostAsync(
            SoapServerFixture.CalculatorPath,
            SoapServerFixture.Envelope("<Compute xmlns=\"http://tempuri.org/\"><iterations>3</iterations></Compute>", header));

        Assert.Equal(expected, response.Status);
        if (expected == HttpStatusCode.InternalServerError)
        {
            Assert.Equal((Dispatcher, "InternalServiceFault"), (response.Fault().Namespace, response.Fault().Name));
        }
    }

    [Theory]
    [InlineData("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body/></s:Envelope>")]
    [InlineData("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body> <!-- none --> </s:Body></s:Envelope>")]
    [InlineData("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><Compute xmlns=\"http://tempuri.org/\"/></s:Body></s:Envelope>")]
    [InlineData("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body><Compute xmlns=\"http://tempuri.org/\" xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\" i:nil=\"true\"/></s:Body></s:Envelope>")]
    public async Task EmptyBodyOrWrapper_InvokesTheOperationWithDefaults(string envelope)
    {
        RawResponse response = await server.PostAsync(SoapServerFixture.CalculatorPath, envelope);

        Assert.Equal(HttpStatusCode.OK, response.Status);
        Assert.Contains("<sum>0</sum>", response.Body);
    }

    [Fact]
    public async Task UnknownMembers_AreSkipped()
    {
        RawResponse response = await server.PostAsync(
            SoapServerFixture.CalculatorPath,
            SoapServerFixture.Envelope("<Compute xmlns=\"http://tempuri.org/\"><bogus><x/></bogus><iterations>3</iterations><more/></Compute>"));

        Assert.Equal(HttpStatusCode.OK, response.Status);
        Assert.Contains("<sum>6</sum>", response.Body);
    }

    [Theory]
    [InlineData("<s:Body><Compute xmlns=\"http://tempuri.org/\"><iterations>3</iterations></Compute><Compute xmlns=\"http://tempuri.org/\"/></s:Body>")]
    [InlineData("<s:Body><Compute xmlns=\"http://tempuri.org/\"><iterations>3</iterations></Compute></s:Body><after/>")]
    [InlineData("<s:Body><Compute xmlns=\"http://tempuri.org/\"><iterations>3</iterations></Compute>text</s:Body>")]
    public async Task ContentAfterTheRequest_IsDeserializationFailed(string body)
    {
        RawResponse response = await server.PostAsync(
            SoapServerFixture.CalculatorPath, $"<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\">{body}</s:Envelope>");

        Assert.Equal(HttpStatusCode.InternalServerError, response.Status);
        Assert.Equal((Dispatcher, "DeserializationFailed"), (response.Fault().Namespace, response.Fault().Name));
    }
}
