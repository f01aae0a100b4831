using System.Net;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// How the endpoint's path is matched, as in CoreWCF 1.9.1 (docs/soap-wire.md, "Paths"): messages in any letter case
/// and with one trailing slash reach the endpoint; paths further below it reach it too but fail its address filter
/// (DestinationUnreachable); metadata and the help page are served at the endpoint's own path only.
/// </summary>
[Collection(SoapServerCollection.Name)]
public sealed class SoapEndpointPathTests(SoapServerFixture server)
{
    private const string ComputeBody = "<Compute xmlns=\"http://tempuri.org/\"><iterations>3</iterations></Compute>";

    [Theory]
    [InlineData("/calculator")]
    [InlineData("/CALCULATOR")]
    [InlineData("/Calculator/")]
    [InlineData("/calculator?trace=1")]
    public async Task Message_ToTheEndpointsPath_InAnyCase_WithOneTrailingSlash_IsServed(string path)
    {
        RawResponse response = await server.PostAsync(path, SoapServerFixture.Envelope(ComputeBody));

        Assert.Equal(HttpStatusCode.OK, response.Status);
        Assert.Contains("<sum>6</sum>", response.Body);
    }

    [Theory]
    [InlineData("/calculator/more", "Compute")]
    [InlineData("/Calculator//", "Compute")]
    [InlineData("/calculator/more", "Divide")]
    public async Task Message_ToAPathBelowTheEndpoint_IsDestinationUnreachable_BeforeItsActionIsLookedAt(string path, string operation)
    {
        RawResponse response = await server.PostAsync(path, SoapServerFixture.Envelope(ComputeBody), operation);

        Assert.Equal(HttpStatusCode.InternalServerError, response.Status);
        (string ns, string code, string reason) = response.Fault();
        Assert.Equal((SoapNames.AddressingNoneNamespace, SoapNames.DestinationUnreachable), (ns, code));
        Assert.Equal(
            $"The message with To '{new Uri(server.BaseAddress, path)}' cannot be processed at the receiver, due to an AddressFilter " +
            "mismatch at the EndpointDispatcher.  Check that the sender and receiver's EndpointAddresses agree.",
            reason);
    }

    [Fact]
    public async Task Message_ToAPathBelowTheEndpoint_IsStillReadFirst()
    {
        RawResponse unreadable = await server.PostAsync("/calculator/more", "not xml");
        RawResponse elsewhere = await server.PostAsync("/calculatorx", SoapServerFixture.Envelope(ComputeBody));

        Assert.Equal(HttpStatusCode.BadRequest, unreadable.Status);
        Assert.Equal(HttpStatusCode.NotFound, elsewhere.Status);
    }

    [Theory]
    [InlineData("/CALCULATOR?wsdl", HttpStatusCode.OK, "text/xml")]
    [InlineData("/Calculator", HttpStatusCode.OK, "text/html")]
    [InlineData("/calculator/?wsdl", HttpStatusCode.BadRequest, null)]
    [InlineData("/calculator/", HttpStatusCode.BadRequest, null)]
    [InlineData("/calculator/more?singleWsdl", HttpStatusCode.BadRequest, null)]
    public async Task Get_IsMetadataAtTheEndpointsOwnPathOnly_ElseARequestWithoutABody(string pathAndQuery, HttpStatusCode expected, string? mediaType)
    {
        using HttpResponseMessage response = await server.Http.GetAsync(new Uri(server.BaseAddress, pathAndQuery));

        Assert.Equal(expected, response.StatusCode);
        Assert.Equal(mediaType, response.Content.Headers.ContentType?.MediaType);
    }
}
