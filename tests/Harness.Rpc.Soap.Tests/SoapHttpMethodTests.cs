using System.Net;
using System.Text;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// HTTP methods and bodies as CoreWCF's HTTP transport takes them: the method plays no part, a request without a body
/// is a 400, and the content type is checked only once there is a body.
/// </summary>
[Collection(SoapServerCollection.Name)]
public sealed class SoapHttpMethodTests(SoapServerFixture server)
{
    private static readonly byte[] Compute = Encoding.UTF8.GetBytes(
        SoapServerFixture.Envelope("<Compute xmlns=\"http://tempuri.org/\"><iterations>5</iterations></Compute>"));

    [Theory]
    [InlineData("PUT")]
    [InlineData("PATCH")]
    [InlineData("DELETE")]
    public async Task SoapBodySentWithAnotherMethod_IsProcessed(string method)
    {
        RawResponse response = await server.SendAsync(
            new HttpMethod(method), SoapServerFixture.CalculatorPath, Compute, $"\"{SoapServerFixture.ActionOf("Compute")}\"", "text/xml; charset=utf-8");

        Assert.Equal(HttpStatusCode.OK, response.Status);
        Assert.Contains("<sum>15</sum>", response.Body);
    }

    [Theory]
    [InlineData("HEAD")]
    [InlineData("OPTIONS")]
    [InlineData("DELETE")]
    [InlineData("POST")]
    public async Task RequestWithoutABody_Is400(string method)
    {
        using var request = new HttpRequestMessage(new HttpMethod(method), new Uri(server.BaseAddress, SoapServerFixture.CalculatorPath));

        using HttpResponseMessage response = await server.Http.SendAsync(request);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Equal(0, response.Content.Headers.ContentLength);
        await server.AssertStillServingAsync();
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task EmptyBodyWithoutContentType_Is400_NotA415(bool chunked)
    {
        RawResponse response = await server.SendAsync(HttpMethod.Post, SoapServerFixture.CalculatorPath, [], soapAction: null, contentType: null, chunked);

        Assert.Equal(HttpStatusCode.BadRequest, response.Status);
    }

    [Fact]
    public async Task ChunkedBodyOverTheQuotaWithTheWrongContentType_Is415_TheContentTypeIsCheckedFirst()
    {
        byte[] large = Encoding.UTF8.GetBytes(new string('x', 4 * SoapServerFixture.SmallLimit));

        RawResponse response = await server.SendAsync(HttpMethod.Post, SoapServerFixture.SmallPath, large, soapAction: null, "application/json", chunked: true);

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.Status);
        await server.AssertStillServingAsync();
    }
}
