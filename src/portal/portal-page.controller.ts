import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { NotFoundError } from '../common/errors';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

interface Asset {
  type: string;
  body: Buffer;
}

/** src/portal/public (dist/portal/public once built): read once, so a path names one of these files or nothing. */
function loadAssets(dir = join(__dirname, 'public')): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const file of readdirSync(dir)) {
    const type = CONTENT_TYPES[extname(file)];
    if (type) assets.set(file, { type, body: readFileSync(join(dir, file)) });
  }
  return assets;
}

/** The portal's page and its modules and style, under the strict policy app.setup.ts gives /portal. */
@ApiExcludeController()
@Controller('portal')
export class PortalPageController {
  private readonly assets = loadAssets();

  @Get()
  page(@Res() res: Response): void {
    this.send(res, 'index.html');
  }

  /** The claim page a team links to or copies: ?parent= is read by the page itself. */
  @Get('claim')
  claim(@Res() res: Response): void {
    this.send(res, 'claim.html');
  }

  @Get(':file')
  asset(@Param('file') file: string, @Res() res: Response): void {
    this.send(res, file);
  }

  private send(res: Response, file: string): void {
    const asset = this.assets.get(file);
    if (!asset) throw new NotFoundError(`No portal file ${file}`);
    res.setHeader('Content-Type', asset.type);
    // The page changes with each release; always ask again (it is small), never keep a stale module.
    res.setHeader('Cache-Control', 'no-cache');
    res.end(asset.body);
  }
}
