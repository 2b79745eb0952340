import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { HolderBudget } from '../common/http/no-rate-limit.decorator';
import { ApiProblems } from '../common/http/openapi';
import { RequestId } from '../common/http/request-id';
import { SubnamePageResponse } from '../subnames/dto/subname-page.response';
import { SubnameResponse } from '../subnames/dto/subname.response';
import { primaryNameEndedHeader } from '../subnames/primary-name-endings';
import type { WriteResult } from '../subnames/subnames.service';
import {
  ClaimDto,
  ClaimMessageDto,
  DeleteDto,
  DeleteMessageDto,
  HolderTypedDataResponse,
  SetRecordsDto,
  SetRecordsMessageDto,
  TransferDto,
  TransferMessageDto,
} from './dto/holder-actions.dto';
import { HolderNamesQuery, HolderParams } from './dto/holder-names.dto';
import { HolderActionsService } from './holder-actions.service';
import { HolderGate } from './holder-gate';
import type { HolderTypedData } from './holder-messages';
import { HolderNamesService } from './holder-names.service';

const CLAIM_REFUSALS: [number, string][] = [
  [400, 'VALIDATION_FAILED: the shape, records as section 2, or a label rule of the policy (named)'],
  [401, "UNAUTHORIZED: the signature is not the owner's"],
  [403, "HOLDER_NOT_ALLOWED naming the policy's rule; CLAIM_LIMIT_REACHED; QUOTA_EXCEEDED (the charged key)"],
  [409, 'SUBNAME_TAKEN / SUBNAME_RESERVED; STALE_SIGNATURE: issuedAt too old, ahead, or replayed'],
];

/** Records, transfer and delete of a held name. */
const HELD_REFUSALS: [number, string][] = [
  [400, 'VALIDATION_FAILED: the shape, or records as section 2'],
  [401, "UNAUTHORIZED: the signature is not the holder's"],
  [403, "HOLDER_NOT_ALLOWED naming the policy's rule (a record key or coin, transfers or deletes off)"],
  [404, 'SUBNAME_NOT_FOUND: the name is not stored'],
  [409, 'STALE_SIGNATURE: issuedAt too old, ahead, or replayed'],
];

/** POST {action}/typed-data: what a wallet signs for that action; only the shape is checked. */
const TypedDataRoute = (path: string) =>
  applyDecorators(
    Post(path),
    HttpCode(200),
    ApiOperation({
      summary: 'Typed data for eth_signTypedData_v4: {domain, types, primaryType, message}; only the shape is checked',
    }),
    ApiOkResponse({ type: HolderTypedDataResponse }),
    ApiProblems([400, 'VALIDATION_FAILED: the shape']),
  );

function send(res: Response, result: WriteResult): SubnameResponse {
  res.status(result.created ? 201 : 200);
  res.set(primaryNameEndedHeader(result.ended));
  return result.subname;
}

@ApiTags('holders')
@HolderBudget()
@Controller('holder')
export class HoldersController {
  constructor(
    private readonly actions: HolderActionsService,
    private readonly gate: HolderGate,
    private readonly names: HolderNamesService,
  ) {}

  @Post('claim')
  @ApiOperation({ summary: 'Claim a name under a parent whose policy allows it, signed by the new owner' })
  @ApiCreatedResponse({ type: SubnameResponse })
  @ApiProblems(...CLAIM_REFUSALS)
  async claim(@Body() dto: ClaimDto, @RequestId() id: string, @Res({ passthrough: true }) res: Response) {
    return send(res, await this.actions.claim(dto, id));
  }

  @Post('records')
  @ApiOperation({ summary: "Set or remove a held name's records, signed by its holder" })
  @ApiOkResponse({ type: SubnameResponse })
  @ApiProblems(...HELD_REFUSALS)
  async records(@Body() dto: SetRecordsDto, @RequestId() id: string, @Res({ passthrough: true }) res: Response) {
    return send(res, await this.actions.setRecords(dto, id));
  }

  @Post('transfer')
  @ApiOperation({ summary: 'Give a held name to another address, signed by its holder' })
  @ApiOkResponse({ type: SubnameResponse })
  @ApiProblems(...HELD_REFUSALS)
  async transfer(@Body() dto: TransferDto, @RequestId() id: string, @Res({ passthrough: true }) res: Response) {
    return send(res, await this.actions.transfer(dto, id));
  }

  @Post('delete')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a held name, signed by its holder' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiProblems(...HELD_REFUSALS)
  async remove(@Body() dto: DeleteDto, @RequestId() id: string, @Res({ passthrough: true }) res: Response) {
    res.set(primaryNameEndedHeader(await this.actions.remove(dto, id)));
  }

  @TypedDataRoute('claim/typed-data')
  claimTypedData(@Body() dto: ClaimMessageDto): HolderTypedData {
    return this.gate.typedData('claim', { ...dto });
  }

  @TypedDataRoute('records/typed-data')
  recordsTypedData(@Body() dto: SetRecordsMessageDto): HolderTypedData {
    return this.gate.typedData('records', { ...dto });
  }

  @TypedDataRoute('transfer/typed-data')
  transferTypedData(@Body() dto: TransferMessageDto): HolderTypedData {
    return this.gate.typedData('transfer', { ...dto });
  }

  @TypedDataRoute('delete/typed-data')
  deleteTypedData(@Body() dto: DeleteMessageDto): HolderTypedData {
    return this.gate.typedData('delete', { ...dto });
  }

  @Get(':address/names')
  @ApiOperation({ summary: 'The names an address holds (no key needed), the page shape of search' })
  @ApiOkResponse({ type: SubnamePageResponse })
  @ApiProblems([400, 'Not an address, or a bad page or size'])
  held(@Param() { address }: HolderParams, @Query() q: HolderNamesQuery): Promise<SubnamePageResponse> {
    return this.names.heldBy(address, q.page, q.size);
  }
}
