using System.Net;
using System.Text;
using Microsoft.Extensions.Logging;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// Request bodies in other encodings than UTF-8, answered by CoreWCF 1.9.1's rule (docs/soap-wire.md, "Content type"):
/// the charset picks the reader's encoding only when it is utf-8, utf-16LE or utf-16BE; with utf-16 or none the
/// reader detects it, which for UTF-16 takes an XML declaration (a byte-order mark alone is not enough); any other
/// charset is a 415. A body the reader cannot read that way is a 400.
/// </summary>
[Collection(SoapServerCollection.Name)]
public sealed class SoapEncodingTests(SoapServerFixture server)
{
    [Theory]
    // UTF-8, the encoder's own.
    [InlineData("utf-8", false, null, "text/xml; charset=utf-8", HttpStatusCode.OK)]
    [InlineData("utf-8", true, null, "text/xml", HttpStatusCode.OK)]
    [InlineData("utf-8", false, "utf-16", "text/xml; charset=utf-8", HttpStatusCode.BadRequest)]
    [InlineData("utf-8", false, null, "text/xml; charset=utf-16LE", HttpStatusCode.BadRequest)]
    // utf-16LE and utf-16BE name the encoding: no mark or declaration needed, any letter case, quoted or not.
    [InlineData("utf-16LE", false, null, "text/xml; charset=utf-16le", HttpStatusCode.OK)]
    [InlineData("utf-16BE", false, null, "text/xml; charset=\"UTF-16BE\"", HttpStatusCode.OK)]
    [InlineData("utf-16BE", true, null, "text/xml; charset=utf-16LE", HttpStatusCode.BadRequest)]
    // utf-16 is ambiguous, so the reader detects: a declaration is needed, with or without a byte-order mark.
    [InlineData("utf-16LE", true, null, "text/xml; charset=utf-16", HttpStatusCode.BadRequest)]
    [InlineData("utf-16LE", false, "utf-16", "text/xml; charset=utf-16", HttpStatusCode.OK)]
    [InlineData("utf-16BE", true, "utf-16", "text/xml; charset=utf-16", HttpStatusCode.OK)]
    // No charset: detected the same way.
    [InlineData("utf-16LE", true, null, "text/xml", HttpStatusCode.BadRequest)]
    [InlineData("utf-16LE", false, null, "text/xml", HttpStatusCode.BadRequest)]
    [InlineData("utf-16LE", true, "utf-16", "text/xml", HttpStatusCode.OK)]
    [InlineData("utf-16BE", false, "utf-16", "text/xml", HttpStatusCode.OK)]
    // Only the table's charsets: .NET's own names for UTF-16 and every other encoding are refused before the body.
    [InlineData("utf-16LE", true, null, "text/xml; charset=unicode", HttpStatusCode.UnsupportedMediaType)]
    [InlineData("latin1", false, "iso-8859-1", "text/xml; charset=iso-8859-1", HttpStatusCode.UnsupportedMediaType)]
    [InlineData("latin1", false, "iso-8859-1", "text/xml", HttpStatusCode.BadRequest)]
    public async Task BodyEncoding_IsAnsweredAsCoreWcfsTextEncoderAnswersIt(
        string encoding, bool byteOrderMark, string? declaration, string contentType, HttpStatusCode expected)
    {
        byte[] body = Encode(encoding, byteOrderMark, declaration, "<Compute xmlns=\"http://tempuri.org/\"><iterations>4</iterations></Compute>");
        int errorsBefore = ErrorCount();

        RawResponse response = await server.SendAsync(
            HttpMethod.Post, SoapServerFixture.CalculatorPath, body, $"\"{SoapServerFixture.ActionOf("Compute")}\"", contentType);

        Assert.Equal(expected, response.Status);
        if (expected == HttpStatusCode.OK)
        {
            Assert.Contains("<sum>10</sum>", response.Body);
        }
        else
        {
            Assert.Equal("", response.Body);
        }

        Assert.Equal(errorsBefore, ErrorCount());
    }

    [Theory]
    [InlineData("text/xml; charset=utf-8", true, "utf-8")]
    [InlineData("TEXT/XML; CHARSET=UTF-8", true, "utf-8")]
    [InlineData("text/xml;charset=utf-16BE", true, "utf-16BE")]
    [InlineData("text/xml; action=\"x\"; charset=utf-16LE", true, "utf-16")]
    [InlineData("text/xml; charset=\"utf-16\"", true, null)]
    [InlineData("text/xml", true, null)]
    [InlineData("text/xml; charset=utf-32", false, null)]
    [InlineData("text/xml; charset=\"\"", false, null)]
    [InlineData("application/xml; charset=utf-8", false, null)]
    [InlineData("", false, null)]
    public void ContentType_IsTakenOrRefused_AndNamesTheEncodingCoreWcfWouldGiveTheReader(string contentType, bool supported, string? webName)
    {
        bool isSupported = SoapContentType.IsSupported(contentType);

        Assert.Equal(supported, isSupported);
        if (supported)
        {
            Assert.True(SoapContentType.TryGetEncoding(contentType, out Encoding? encoding));
            Assert.Equal(webName, encoding?.WebName);
        }
    }

    private int ErrorCount() => server.Logs.Entries.Count(entry => entry.Level >= LogLevel.Error);

    private static byte[] Encode(string encodingName, bool byteOrderMark, string? declaration, string body)
    {
        Encoding encoding = encodingName switch
        {
            "utf-8" => new UTF8Encoding(encoderShouldEmitUTF8Identifier: true),
            "utf-16LE" => Encoding.Unicode,
            "utf-16BE" => Encoding.BigEndianUnicode,
            _ => Encoding.Latin1,
        };
        // A character outside ASCII, so a body read in the wrong encoding fails rather than passing by luck.
        string xml = (declaration is null ? "" : $"<?xml version=\"1.0\" encoding=\"{declaration}\"?>")
            + SoapServerFixture.Envelope(body).Replace("<iterations>", "<!-- é --><iterations>", StringComparison.Ordinal);
        byte[] text = encoding.GetBytes(xml);
        return byteOrderMark ? [.. encoding.GetPreamble(), .. text] : text;
    }
}
