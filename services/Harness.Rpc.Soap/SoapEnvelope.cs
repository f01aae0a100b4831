using System.Runtime.Serialization;
using System.Text;
using System.Xml;

namespace Harness.Rpc.Soap;

/// <summary>Reads and writes SOAP 1.1 envelopes, as WCF's text message encoder does for BasicHttpBinding.</summary>
internal static class SoapEnvelope
{
    private const string EnvelopeName = "Envelope";
    private const string HeaderName = "Header";
    private const string BodyName = "Body";
    private const string FaultName = "Fault";

    private static readonly Encoding Utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false);
    private static readonly DataContractSerializer ExceptionDetailSerializer = new(typeof(SoapExceptionDetail));

    /// <summary>Writes an envelope whose body is <paramref name="body"/> serialized by <paramref name="serializer"/>.</summary>
    public static ArraySegment<byte> Write(DataContractSerializer serializer, object? body) =>
        Write((serializer, body), static (writer, state) => state.serializer.WriteObject(writer, state.body));

    public static ArraySegment<byte> WriteFault(SoapFault fault) => Write(fault, WriteFaultElement);

    /// <summary>
    /// Reads the envelope start, the headers and the body start, leaving the reader on the body's first child. Like
    /// WCF's buffered message this part is read up front, so an <see cref="XmlException"/> from it means the message
    /// itself is unreadable, not its operation payload. An empty body is read to the end of the envelope here, as
    /// WCF's <c>Message.ReadStartBody</c> does.
    /// </summary>
    public static EnvelopeStart ReadToBodyContents(XmlDictionaryReader reader)
    {
        reader.MoveToContent();
        if (!reader.IsStartElement(EnvelopeName, SoapNames.EnvelopeNamespace))
        {
            throw new XmlException(
                $"Expected a SOAP 1.1 envelope ('{EnvelopeName}' in '{SoapNames.EnvelopeNamespace}') but found '{reader.LocalName}' in '{reader.NamespaceURI}'.");
        }

        if (reader.IsEmptyElement)
        {
            throw new XmlException("The SOAP envelope has no body.");
        }

        reader.ReadStartElement();
        reader.MoveToContent();
        XmlQualifiedName? notUnderstood = null;
        if (reader.IsStartElement(HeaderName, SoapNames.EnvelopeNamespace))
        {
            notUnderstood = SkipHeaders(reader);
        }

        if (!reader.IsStartElement(BodyName, SoapNames.EnvelopeNamespace))
        {
            throw new XmlException($"Expected the SOAP body but found '{reader.LocalName}' in '{reader.NamespaceURI}'.");
        }

        if (reader.IsEmptyElement)
        {
            reader.Read();
            ReadEnvelopeEnd(reader);
            return new EnvelopeStart(notUnderstood, IsEmpty: true);
        }

        reader.ReadStartElement();
        reader.MoveToContent();
        if (reader.NodeType == XmlNodeType.EndElement)
        {
            ReadFromBodyContentsToEnd(reader);
            return new EnvelopeStart(notUnderstood, IsEmpty: true);
        }

        return new EnvelopeStart(notUnderstood, IsEmpty: false);
    }

    /// <summary>
    /// Reads from just after the body payload to the end of the document, as WCF's Message.ReadFromBodyContentsToEnd
    /// does: the body and envelope end tags must follow, so a second element in the body, an element after the body,
    /// or malformed XML after the payload fails the message.
    /// </summary>
    public static void ReadFromBodyContentsToEnd(XmlDictionaryReader reader)
    {
        reader.ReadEndElement();
        ReadEnvelopeEnd(reader);
    }

    public static bool IsAtFault(XmlDictionaryReader reader) =>
        reader.NodeType == XmlNodeType.Element && reader.IsStartElement(FaultName, SoapNames.EnvelopeNamespace);

    /// <summary>Reads the <c>s:Fault</c> the reader is on into the exception the client throws.</summary>
    public static SoapFaultException ReadFault(XmlDictionaryReader reader)
    {
        XmlQualifiedName? code = null;
        string? reason = null;
        SoapExceptionDetail? detail = null;
        if (reader.IsEmptyElement)
        {
            throw new XmlException("The SOAP fault is empty.");
        }

        reader.ReadStartElement();
        reader.MoveToContent();
        while (reader.NodeType == XmlNodeType.Element)
        {
            // SOAP 1.1 fault children are unqualified.
            if (reader.IsStartElement("faultcode", string.Empty))
            {
                code = ReadQualifiedNameElement(reader);
            }
            else if (reader.IsStartElement("faultstring", string.Empty))
            {
                reason = reader.ReadElementContentAsString();
            }
            else if (reader.IsStartElement("detail", string.Empty) && !reader.IsEmptyElement)
            {
                reader.ReadStartElement();
                reader.MoveToContent();
                if (ExceptionDetailSerializer.IsStartObject(reader))
                {
                    detail = (SoapExceptionDetail?)ExceptionDetailSerializer.ReadObject(reader);
                }

                SkipSiblings(reader);
                reader.ReadEndElement();
            }
            else
            {
                reader.Skip();
            }

            reader.MoveToContent();
        }

        if (code is null || reason is null)
        {
            throw new XmlException("The SOAP fault lacks its faultcode or faultstring.");
        }

        return new SoapFaultException(SoapFaultException.Classify(code), code, reason, detail);
    }

    private static void ReadEnvelopeEnd(XmlDictionaryReader reader)
    {
        reader.ReadEndElement();
        while (reader.Read())
        {
            if (reader.NodeType is not (XmlNodeType.Whitespace or XmlNodeType.Comment or XmlNodeType.ProcessingInstruction))
            {
                throw new XmlException($"Unexpected {reader.NodeType} after the SOAP envelope.");
            }
        }
    }

    private static XmlQualifiedName? SkipHeaders(XmlDictionaryReader reader)
    {
        if (reader.IsEmptyElement)
        {
            reader.Read();
            reader.MoveToContent();
            return null;
        }

        XmlQualifiedName? notUnderstood = null;
        reader.ReadStartElement();
        reader.MoveToContent();
        while (reader.NodeType == XmlNodeType.Element)
        {
            // This endpoint understands no header, so any mandatory one fails the message. CoreWCF's
            // MessageHeaders.GetHeadersNotUnderstood takes every mandatory header not understood, whatever its actor:
            // a header for another actor (or none, or "next") fails it too.
            if (IsMandatory(reader.GetAttribute("mustUnderstand", SoapNames.EnvelopeNamespace)) && notUnderstood is null)
            {
                notUnderstood = new XmlQualifiedName(reader.LocalName, reader.NamespaceURI);
            }

            reader.Skip();
            reader.MoveToContent();
        }

        reader.ReadEndElement();
        reader.MoveToContent();
        return notUnderstood;
    }

    /// <summary>
    /// CoreWCF's MessageHeader.ToBoolean: "1", "0", "true" and "false" as they are, then what XmlConvert.ToBoolean reads
    /// (surrounding whitespace allowed); anything else is an XmlException, which makes the message unreadable (a 400).
    /// </summary>
    private static bool IsMandatory(string? mustUnderstand)
    {
        if (mustUnderstand is null)
        {
            return false;
        }

        try
        {
            return mustUnderstand switch
            {
                "1" or "true" => true,
                "0" or "false" => false,
                _ => XmlConvert.ToBoolean(mustUnderstand),
            };
        }
        catch (FormatException e)
        {
            throw new XmlException(e.Message, e);
        }
    }

    private static void SkipSiblings(XmlDictionaryReader reader)
    {
        reader.MoveToContent();
        while (reader.NodeType is not (XmlNodeType.EndElement or XmlNodeType.None))
        {
            reader.Skip();
            reader.MoveToContent();
        }
    }

    private static XmlQualifiedName ReadQualifiedNameElement(XmlDictionaryReader reader)
    {
        if (reader.IsEmptyElement)
        {
            throw new XmlException("The SOAP faultcode is empty.");
        }

        reader.ReadStartElement();
        string value = reader.ReadContentAsString().Trim();
        int colon = value.IndexOf(':', StringComparison.Ordinal);
        string prefix = colon < 0 ? string.Empty : value[..colon];
        string localName = colon < 0 ? value : value[(colon + 1)..];
        // Resolve the prefix before leaving the element: the faultcode often declares it itself.
        string ns = reader.LookupNamespace(prefix) ?? throw new XmlException($"The faultcode prefix '{prefix}' is not declared.");
        reader.ReadEndElement();
        return new XmlQualifiedName(localName, ns);
    }

    private static void WriteFaultElement(XmlDictionaryWriter writer, SoapFault fault)
    {
        writer.WriteStartElement(SoapNames.EnvelopePrefix, FaultName, SoapNames.EnvelopeNamespace);
        writer.WriteStartElement("faultcode", string.Empty);
        if (fault.Code.Namespace == SoapNames.EnvelopeNamespace)
        {
            writer.WriteString($"{SoapNames.EnvelopePrefix}:{fault.Code.Name}");
        }
        else
        {
            // WCF declares the subcode's namespace on the faultcode element under the prefix 'a'.
            writer.WriteXmlnsAttribute("a", fault.Code.Namespace);
            writer.WriteString("a:" + fault.Code.Name);
        }

        writer.WriteEndElement();
        writer.WriteStartElement("faultstring", string.Empty);
        writer.WriteAttributeString("xml", "lang", null, "en-US");
        writer.WriteString(fault.Reason);
        writer.WriteEndElement();
        if (fault.Detail is not null)
        {
            writer.WriteStartElement("detail", string.Empty);
            ExceptionDetailSerializer.WriteObject(writer, fault.Detail);
            writer.WriteEndElement();
        }

        writer.WriteEndElement();
    }

    private static ArraySegment<byte> Write<TState>(TState state, Action<XmlDictionaryWriter, TState> writeBody)
    {
        var stream = new MemoryStream(512);
        using (XmlDictionaryWriter writer = XmlDictionaryWriter.CreateTextWriter(stream, Utf8, ownsStream: false))
        {
            writer.WriteStartElement(SoapNames.EnvelopePrefix, EnvelopeName, SoapNames.EnvelopeNamespace);
            writer.WriteStartElement(SoapNames.EnvelopePrefix, BodyName, SoapNames.EnvelopeNamespace);
            writeBody(writer, state);
            writer.WriteEndElement();
            writer.WriteEndElement();
        }

        return new ArraySegment<byte>(stream.GetBuffer(), 0, (int)stream.Length);
    }
}

/// <summary>What the envelope phase learned: a mandatory header nobody understands, and whether the body is empty.</summary>
internal readonly record struct EnvelopeStart(XmlQualifiedName? NotUnderstood, bool IsEmpty);
